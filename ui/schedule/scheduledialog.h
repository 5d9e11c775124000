#pragma once

#include "cron/dsteffect.h"
#include "domain/calendar.h"
#include "domain/schedule.h"

#include <QDialog>
#include <QTimeZone>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QTimeEdit;

namespace hg {

// Adds or edits one schedule. The expression is checked as it is typed: a mistake is named
// and a caret points at its column; a good one is explained in plain English with its next
// ten fire times in the chosen zone. A small builder writes common expressions and reads
// them back. Nothing typed yet shows no error; messages never move the dialog's layout.
class ScheduleDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScheduleDialog)

public:
    explicit ScheduleDialog(const Schedule &schedule, const QTimeZone &defaultZone,
                            QWidget *parent = nullptr);

    Schedule schedule() const;
    QString problem() const;
    QStringList nextFireTimes() const;     // the fire times alone
    QStringList dstNotes() const;          // the DST changes shown among them
    QStringList excludedFireTimes() const; // crossed out: the calendar rules them out
    // The calendars a schedule may exclude or keep to (the store's, by name).
    void setCalendars(const QList<Calendar> &calendars);
    QString explanation() const;
    // The builder: every N minutes, daily at a time, or weekly on some days at a time.
    void buildEveryMinutes(int minutes);
    void buildDaily(const QTime &at);
    void buildWeekly(const QList<int> &weekdays, const QTime &at); // 0 = Sunday

private:
    QWidget *buildBuilder();
    void refresh();
    void showProblem(const QString &message);
    void addDstChange(const DstEffect::Change &change);
    void addExcluded(qint64 fireMs, const QTimeZone &shownIn, const QString &calendar);
    QStringList itemsOfKind(const QString &kind) const;
    void readBack(const QString &expression);
    QTimeZone zone() const;

    Schedule m_original;
    QTimeZone m_defaultZone;
    QLineEdit *m_expression;
    QComboBox *m_dialect;
    QComboBox *m_zone;
    QComboBox *m_misfire;
    QComboBox *m_dst;
    QComboBox *m_calendar;
    QList<Calendar> m_calendars;
    QSpinBox *m_misfireWindow;
    QCheckBox *m_fromEnabled;
    QDateTimeEdit *m_from;
    QCheckBox *m_untilEnabled;
    QDateTimeEdit *m_until;
    QCheckBox *m_enabled;
    QLabel *m_pointer;
    QLabel *m_problem;
    QLabel *m_explanation;
    QListWidget *m_next;
    QDialogButtonBox *m_buttons;
    QSpinBox *m_everyMinutes;
    QTimeEdit *m_dailyAt;
    QTimeEdit *m_weeklyAt;
    QList<QCheckBox *> m_weekdays;
    bool m_typed = false; // the user typed into the expression
};

} // namespace hg
