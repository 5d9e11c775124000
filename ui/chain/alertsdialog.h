#pragma once

#include "domain/alert.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace hg {

// A chain's lateness and duration alerts: started more than N s late; a run longer than a
// ceiling or shorter than a floor, each in seconds, minutes or hours or as a factor of the
// median of the last 20 runs; and a deadline (a cron expression and its zone) by which a run
// must have succeeded. The same rules as `hourglass alert set`; OK refuses a deadline that
// does not parse, naming the field.
class AlertsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertsDialog)

public:
    explicit AlertsDialog(const AlertRules &rules, QWidget *parent = nullptr);

    AlertRules rules() const;
    void setRules(const AlertRules &rules);
    QString error() const;
    // One line for the chain's box: "Alerts: none", "Alerts: late > 1 min 30 s, …".
    static QString summary(const AlertRules &rules);

private:
    struct Limit
    {
        QComboBox *unit;
        QDoubleSpinBox *value;
    };
    Limit limitEditor(const QString &objectName);
    static void showLimit(const Limit &limit, qint64 ms, double factor);
    static void readLimit(const Limit &limit, qint64 &ms, double &factor);
    void check();

    QSpinBox *m_late;
    Limit m_longer;
    Limit m_shorter;
    QLineEdit *m_deadline;
    QLineEdit *m_zone;
    QLabel *m_error;
};

} // namespace hg
