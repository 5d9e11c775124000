#include "scheduledialog.h"

#include "displayformat.h"
#include "domain/schedulevalidator.h"
#include "scheduler/scheduleplan.h"
#include "schedulesmodel.h"
#include "statepresentation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QListWidgetItem>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QTimeEdit>
#include <QVBoxLayout>

namespace hg {

ScheduleDialog::ScheduleDialog(const Schedule &schedule, const QTimeZone &defaultZone,
                               QWidget *parent)
    : QDialog(parent)
    , m_original(schedule)
    , m_defaultZone(defaultZone)
    , m_expression(new QLineEdit(schedule.expression, this))
    , m_dialect(new QComboBox(this))
    , m_zone(new QComboBox(this))
    , m_misfire(new QComboBox(this))
    , m_dst(new QComboBox(this))
    , m_calendar(new QComboBox(this))
    , m_misfireWindow(new QSpinBox(this))
    , m_fromEnabled(new QCheckBox(tr("From"), this))
    , m_from(new QDateTimeEdit(this))
    , m_untilEnabled(new QCheckBox(tr("Until"), this))
    , m_until(new QDateTimeEdit(this))
    , m_enabled(new QCheckBox(tr("Enabled"), this))
    , m_pointer(new QLabel(this))
    , m_problem(new QLabel(this))
    , m_explanation(new QLabel(this))
    , m_next(new QListWidget(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
    , m_everyMinutes(new QSpinBox(this))
    , m_dailyAt(new QTimeEdit(QTime(7, 0), this))
    , m_weeklyAt(new QTimeEdit(QTime(7, 30), this))
{
    setWindowTitle(schedule.id ? tr("Edit schedule") : tr("New schedule"));
    m_expression->setObjectName(QStringLiteral("schedule.expression"));
    m_zone->setObjectName(QStringLiteral("schedule.zone"));
    m_dialect->setObjectName(QStringLiteral("schedule.dialect"));
    m_next->setObjectName(QStringLiteral("schedule.next"));
    m_problem->setObjectName(QStringLiteral("schedule.problem"));
    m_pointer->setObjectName(QStringLiteral("schedule.pointer"));
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_expression->setFont(fixed);
    m_pointer->setFont(fixed);
    m_expression->setPlaceholderText(
        tr("*/5 * * * *  ·  0 30 7 * * MON-FRI  ·  @every 90s  ·  2026-12-24T18:00:00"));
    const QString errorColour =
        QStringLiteral("color: %1;").arg(StatePresentation::errorText().name());
    m_problem->setStyleSheet(errorColour);
    m_pointer->setStyleSheet(errorColour);
    m_problem->setWordWrap(true);
    m_explanation->setWordWrap(true);
    m_next->setMinimumHeight(200);
    m_next->setWordWrap(true); // a clock change's sentence is longer than a fire time
    // Room reserved for the caret, two lines of message and three of meaning: the dialog keeps
    // still while they change; a longer text is cut and shown whole in the tooltip.
    const int line = fontMetrics().lineSpacing();
    m_pointer->setFixedHeight(line);
    m_problem->setFixedHeight(2 * line + 2);
    m_explanation->setFixedHeight(3 * line + 2);
    m_problem->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_explanation->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_expression->setAccessibleName(tr("Expression"));
    m_problem->setAccessibleName(tr("Problem"));
    m_explanation->setAccessibleName(tr("Meaning"));
    m_next->setAccessibleName(tr("Next fire times"));

    const QStringList dialectLabels{tr("Detect"), tr("Unix (5 fields)"),
                                    tr("With seconds (6 fields)"), tr("Quartz"),
                                    tr("pg_timetable")};
    for (CronDialect dialect : {CronDialect::Auto, CronDialect::Unix, CronDialect::Seconds,
                                CronDialect::Quartz, CronDialect::PgTimetable})
        m_dialect->addItem(dialectLabels.at(int(dialect)), int(dialect));
    m_dialect->setCurrentIndex(m_dialect->findData(int(schedule.dialect)));

    m_zone->setEditable(true);
    m_zone->addItem(tr("(default: %1)").arg(QString::fromUtf8(defaultZone.id())), QString());
    for (const QByteArray &id : QTimeZone::availableTimeZoneIds())
        m_zone->addItem(QString::fromUtf8(id), QString::fromUtf8(id));
    m_zone->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_zone->completer()->setFilterMode(Qt::MatchContains);
    m_zone->setCurrentIndex(std::max(0, m_zone->findData(schedule.timeZone)));

    const QStringList misfireLabels{tr("Skip what was missed"), tr("Run once for what was missed"),
                                    tr("Run every missed time"),
                                    tr("Ask me (the missed-runs inbox)")};
    for (MisfirePolicy policy :
         {MisfirePolicy::Skip, MisfirePolicy::Once, MisfirePolicy::All, MisfirePolicy::Ask})
        m_misfire->addItem(misfireLabels.at(int(policy)), int(policy));
    m_misfire->setCurrentIndex(m_misfire->findData(int(schedule.misfire)));
    m_dst->setObjectName(QStringLiteral("schedule.dst"));
    m_dst->setAccessibleName(tr("Daylight saving time"));
    const QList<std::pair<QString, DstPolicy>> dstChoices{
        {tr("A time the clocks skip runs right after; a repeated time runs once"), DstPolicy{}},
        {tr("A time the clocks skip is skipped; a repeated time runs once"),
         DstPolicy{DstPolicy::Gap::Skip, DstPolicy::Overlap::Once}},
        {tr("A time the clocks skip runs right after; a repeated time runs twice"),
         DstPolicy{DstPolicy::Gap::RunAfter, DstPolicy::Overlap::Both}},
        {tr("A time the clocks skip is skipped; a repeated time runs twice"),
         DstPolicy{DstPolicy::Gap::Skip, DstPolicy::Overlap::Both}},
        {tr("As cronie does it"), DstPolicy::cronie()}};
    for (const auto &[label, policy] : dstChoices)
        m_dst->addItem(label, policy.toText());
    m_dst->setCurrentIndex(std::max(0, m_dst->findData(schedule.dst.toText())));
    m_dst->setToolTip(
        tr("What a change to or from daylight saving time does to this schedule. cronie: a job "
           "whose minute or hour starts with * skips the times the clocks skip and runs again in "
           "a repeated hour; any other job runs the skipped times right after and a repeated "
           "time once."));
    m_calendar->setObjectName(QStringLiteral("schedule.calendar"));
    m_calendar->setAccessibleName(tr("Calendar"));
    m_calendar->setToolTip(tr("A calendar's days (holidays, weekends) this schedule never fires "
                              "on, or the only days it fires on. hourglass calendar add makes "
                              "one."));
    m_calendar->addItem(tr("(every day)"), QString());
    if (schedule.calendarId > 0) // until setCalendars() lists them all
        m_calendar->addItem(
            schedule.calendarName,
            QStringLiteral("%1:%2").arg(enumName(schedule.calendarMode)).arg(schedule.calendarId));
    m_calendar->setCurrentIndex(m_calendar->count() - 1);
    m_misfireWindow->setRange(0, 24 * 365);
    m_misfireWindow->setSuffix(tr(" h"));
    m_misfireWindow->setValue(schedule.misfireWindowSeconds / 3600);

    const QDateTime now = QDateTime::currentDateTime();
    for (QDateTimeEdit *edit : {m_from, m_until}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
        edit->setDateTime(now);
    }
    m_fromEnabled->setChecked(schedule.activeFrom.isValid());
    m_untilEnabled->setChecked(schedule.activeUntil.isValid());
    if (schedule.activeFrom.isValid())
        m_from->setDateTime(schedule.activeFrom.toLocalTime());
    if (schedule.activeUntil.isValid())
        m_until->setDateTime(schedule.activeUntil.toLocalTime());
    m_enabled->setChecked(schedule.enabled);

    auto *expressionColumn = new QVBoxLayout;
    expressionColumn->setSpacing(0);
    expressionColumn->addWidget(m_expression);
    expressionColumn->addWidget(m_pointer);
    auto *window = new QHBoxLayout;
    window->addWidget(m_fromEnabled);
    window->addWidget(m_from);
    window->addWidget(m_untilEnabled);
    window->addWidget(m_until);
    auto *misfire = new QHBoxLayout;
    misfire->addWidget(m_misfire, 1);
    misfire->addWidget(new QLabel(tr("within"), this));
    misfire->addWidget(m_misfireWindow);

    auto *form = new QFormLayout;
    form->addRow(tr("Expression:"), expressionColumn);
    form->addRow(QString(), m_problem);
    form->addRow(tr("&Dialect:"), m_dialect);
    form->addRow(tr("&Time zone:"), m_zone);
    form->addRow(tr("Meaning:"), m_explanation);
    form->addRow(tr("Next 10:"), m_next);
    form->addRow(tr("Missed fires:"), misfire);
    form->addRow(tr("&Clock changes:"), m_dst);
    form->addRow(tr("Ca&lendar:"), m_calendar);
    form->addRow(tr("Active:"), window);
    form->addRow(QString(), m_enabled);

    auto *layout = new QHBoxLayout;
    layout->addLayout(form, 3);
    layout->addWidget(buildBuilder(), 2);
    auto *outer = new QVBoxLayout(this);
    outer->addLayout(layout);
    outer->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_expression, &QLineEdit::textChanged, this, &ScheduleDialog::refresh);
    connect(m_expression, &QLineEdit::textEdited, this, [this] { m_typed = true; });
    connect(m_dialect, &QComboBox::currentIndexChanged, this, &ScheduleDialog::refresh);
    connect(m_zone, &QComboBox::currentTextChanged, this, &ScheduleDialog::refresh);
    for (QCheckBox *box : {m_fromEnabled, m_untilEnabled, m_enabled})
        connect(box, &QCheckBox::toggled, this, &ScheduleDialog::refresh);
    for (QDateTimeEdit *edit : {m_from, m_until})
        connect(edit, &QDateTimeEdit::dateTimeChanged, this, &ScheduleDialog::refresh);
    connect(m_misfireWindow, &QSpinBox::valueChanged, this, &ScheduleDialog::refresh);
    connect(m_dst, &QComboBox::currentIndexChanged, this, &ScheduleDialog::refresh);
    connect(m_calendar, &QComboBox::currentIndexChanged, this, &ScheduleDialog::refresh);
    refresh();
    m_expression->setFocus();
}

QWidget *ScheduleDialog::buildBuilder()
{
    auto *box = new QGroupBox(tr("Builder"), this);
    m_everyMinutes->setRange(1, 1440);
    m_everyMinutes->setValue(15);
    m_everyMinutes->setSuffix(tr(" min"));
    auto *every = new QPushButton(tr("Every"), box);
    auto *daily = new QPushButton(tr("Daily at"), box);
    auto *weeklyTime = m_weeklyAt;
    auto *weekly = new QPushButton(tr("Weekly at"), box);
    const QStringList days{tr("Sun"), tr("Mon"), tr("Tue"), tr("Wed"),
                           tr("Thu"), tr("Fri"), tr("Sat")};
    auto *dayRow = new QHBoxLayout;
    for (int day = 0; day < 7; ++day) {
        auto *check = new QCheckBox(days.at(day), box);
        check->setChecked(day >= 1 && day <= 5);
        m_weekdays << check;
        dayRow->addWidget(check);
    }
    auto *form = new QFormLayout(box);
    form->addRow(every, m_everyMinutes);
    form->addRow(daily, m_dailyAt);
    form->addRow(weekly, weeklyTime);
    form->addRow(dayRow);
    form->addRow(new QLabel(tr("Each button writes the expression; edit it further on the "
                               "left."),
                            box));
    connect(every, &QPushButton::clicked, this,
            [this] { buildEveryMinutes(m_everyMinutes->value()); });
    connect(daily, &QPushButton::clicked, this, [this] { buildDaily(m_dailyAt->time()); });
    connect(weekly, &QPushButton::clicked, this, [this, weeklyTime] {
        QList<int> chosen;
        for (int day = 0; day < 7; ++day) {
            if (m_weekdays.at(day)->isChecked())
                chosen << day;
        }
        buildWeekly(chosen, weeklyTime->time());
    });
    return box;
}

void ScheduleDialog::buildEveryMinutes(int minutes)
{
    m_dialect->setCurrentIndex(m_dialect->findData(int(CronDialect::Auto)));
    // A step that divides the hour is plain cron; anything else needs @every.
    m_expression->setText(60 % minutes == 0 && minutes < 60
                              ? QStringLiteral("*/%1 * * * *").arg(minutes)
                              : QStringLiteral("@every %1m").arg(minutes));
}

void ScheduleDialog::buildDaily(const QTime &at)
{
    m_dialect->setCurrentIndex(m_dialect->findData(int(CronDialect::Auto)));
    m_expression->setText(QStringLiteral("%1 %2 * * *").arg(at.minute()).arg(at.hour()));
}

void ScheduleDialog::buildWeekly(const QList<int> &weekdays, const QTime &at)
{
    QStringList days;
    for (int day : weekdays)
        days << QString::number(day);
    m_dialect->setCurrentIndex(m_dialect->findData(int(CronDialect::Auto)));
    m_expression->setText(
        QStringLiteral("%1 %2 * * %3")
            .arg(at.minute())
            .arg(at.hour())
            .arg(days.isEmpty() ? QStringLiteral("*") : days.join(QLatin1Char(','))));
}

QTimeZone ScheduleDialog::zone() const
{
    const QString id = schedule().timeZone;
    return id.isEmpty() ? m_defaultZone : QTimeZone(id.toUtf8());
}

Schedule ScheduleDialog::schedule() const
{
    Schedule s = m_original;
    s.expression = m_expression->text().trimmed();
    s.kind = inferScheduleKind(s.expression);
    s.dialect = CronDialect(m_dialect->currentData().toInt());
    // An editable box: the typed text decides, whether or not it was picked from the list.
    const QString typed = m_zone->currentText().trimmed();
    const int listed = m_zone->findText(typed);
    s.timeZone = listed >= 0 ? m_zone->itemData(listed).toString() : typed;
    s.misfire = MisfirePolicy(m_misfire->currentData().toInt());
    s.misfireWindowSeconds = m_misfireWindow->value() * 3600;
    s.dst = DstPolicy::fromText(m_dst->currentData().toString()).value_or(DstPolicy{});
    // "exclude:ID" or "only:ID"; the days come from the calendars the dialog was given.
    const QStringList chosen = m_calendar->currentData().toString().split(QLatin1Char(':'));
    const qint64 calendarId = chosen.size() == 2 ? chosen.at(1).toLongLong() : 0;
    s.calendarMode =
        enumFromString<CalendarMode>(chosen.constFirst()).value_or(CalendarMode::Exclude);
    s.calendarId = calendarId;
    if (calendarId != m_original.calendarId || !m_original.calendarDays) {
        s.calendarName.clear();
        s.calendarDays.reset();
        for (const Calendar &calendar : m_calendars) {
            if (calendar.id == calendarId && calendarId > 0) {
                s.calendarName = calendar.name;
                s.calendarDays = std::make_shared<const CalendarDays>(calendar.days());
            }
        }
    }
    s.activeFrom = m_fromEnabled->isChecked() ? m_from->dateTime().toUTC() : QDateTime();
    s.activeUntil = m_untilEnabled->isChecked() ? m_until->dateTime().toUTC() : QDateTime();
    s.enabled = m_enabled->isChecked();
    return s;
}

void ScheduleDialog::refresh()
{
    m_from->setEnabled(m_fromEnabled->isChecked());
    m_until->setEnabled(m_untilEnabled->isChecked());
    const Schedule s = schedule();
    m_next->clear();
    m_pointer->clear();
    const Status valid = ScheduleValidator::validate(s);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(bool(valid));
    if (!valid && s.expression.isEmpty() && !m_typed) {
        // Nothing typed yet is no mistake.
        showProblem(QString());
        m_explanation->setText(
            tr("Type an expression, or let the builder on the right write one."));
        return;
    }
    if (!valid) {
        QString message = valid.error().message;
        // The command line says which part of Hourglass complains; beside the field it is noise.
        if (message.startsWith(QLatin1String("cron: ")))
            message.remove(0, 6);
        showProblem(message);
        m_explanation->clear();
        // A caret under the faulty column of the expression.
        if (const int at = valid.error().column; at > 0) {
            // Columns count in the trimmed text; the field may have leading blanks.
            const int leading = std::max(0, int(m_expression->text().indexOf(s.expression)));
            // The caret below points at the column; the text cursor stays the user's (moved
            // here, every keystroke after a mistake landed in the wrong place).
            m_pointer->setText(QString(leading + at - 1, QLatin1Char(' ')) + QLatin1Char('^'));
        }
        return;
    }
    showProblem(QString());
    m_explanation->setText(SchedulesModel::meaning(s, m_defaultZone));
    m_explanation->setToolTip(m_explanation->text());
    readBack(s.expression);
    const QTimeZone shownIn = zone();
    const Result<SchedulePlan> plan = SchedulePlan::create(s, m_defaultZone);
    if (!plan)
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 after = now;
    // The next ten fire times; where the calendar rules a day out, its first fire time is
    // shown crossed out before the walk moves past that day.
    QList<std::pair<qint64, bool>> fires; // time, ruled out
    for (int kept = 0, ruledOut = 0; kept < 10 && ruledOut < 10;) {
        const std::optional<qint64> candidate = plan->nextCandidateMs(after);
        if (!candidate)
            break;
        if (!plan->ruledOutByCalendar(*candidate)) {
            fires.append({*candidate, false});
            after = *candidate;
            ++kept;
            continue;
        }
        fires.append({*candidate, true});
        ++ruledOut;
        const std::optional<qint64> resume = plan->nextFireMs(*candidate);
        if (!resume)
            break;
        after = *resume - 1;
    }
    // A DST change among them shows where it falls, saying what it does to this schedule.
    const QList<DstEffect::Change> changes =
        plan->dstChanges(now, fires.isEmpty() ? now : fires.constLast().first);
    qsizetype change = 0;
    for (const auto &[fire, ruledOut] : std::as_const(fires)) {
        for (; change < changes.size() && changes.at(change).atUtc * 1000 <= fire; ++change)
            addDstChange(changes.at(change));
        if (ruledOut)
            addExcluded(fire, shownIn, s.calendarName);
        else
            m_next->addItem(
                DisplayFormat::zonedDateTime(QDateTime::fromMSecsSinceEpoch(fire), shownIn));
    }
    if (m_next->count() == 0)
        m_next->addItem(s.kind == ScheduleKind::After || s.kind == ScheduleKind::Startup
                            ? tr("(depends on when the engine starts or the last run ends)")
                            : tr("(no more fire times)"));
}

void ScheduleDialog::addDstChange(const DstEffect::Change &change)
{
    auto *item = new QListWidgetItem(style()->standardIcon(QStyle::SP_MessageBoxInformation),
                                     change.description, m_next);
    item->setToolTip(change.description);
    item->setData(Qt::UserRole, QStringLiteral("dst"));
    QFont font = item->font();
    font.setItalic(true);
    item->setFont(font);
    item->setFlags(item->flags() & ~Qt::ItemIsSelectable);
}

void ScheduleDialog::addExcluded(qint64 fireMs, const QTimeZone &shownIn, const QString &calendar)
{
    auto *item = new QListWidgetItem(
        DisplayFormat::zonedDateTime(QDateTime::fromMSecsSinceEpoch(fireMs), shownIn), m_next);
    const QString why = schedule().calendarMode == CalendarMode::Exclude
                            ? tr("Not run: calendar '%1' excludes this day").arg(calendar)
                            : tr("Not run: this day is not in calendar '%1'").arg(calendar);
    item->setToolTip(why);
    item->setData(Qt::AccessibleDescriptionRole, why);
    item->setData(Qt::UserRole, QStringLiteral("excluded"));
    QFont font = item->font();
    font.setStrikeOut(true);
    item->setFont(font);
    item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    item->setFlags(item->flags() & ~Qt::ItemIsSelectable);
}

void ScheduleDialog::setCalendars(const QList<Calendar> &calendars)
{
    const QString current = m_calendar->currentData().toString();
    m_calendars = calendars;
    const QSignalBlocker quiet(m_calendar);
    m_calendar->clear();
    m_calendar->addItem(tr("(every day)"), QString());
    for (const Calendar &calendar : calendars) {
        m_calendar->addItem(tr("Not on the days of %1").arg(calendar.name),
                            QStringLiteral("exclude:%1").arg(calendar.id));
        m_calendar->addItem(tr("Only on the days of %1").arg(calendar.name),
                            QStringLiteral("only:%1").arg(calendar.id));
    }
    m_calendar->setCurrentIndex(std::max(0, m_calendar->findData(current)));
    m_original.calendarDays.reset(); // the days now come from the list
    refresh();
}

void ScheduleDialog::showProblem(const QString &message)
{
    m_problem->setText(message);
    m_problem->setToolTip(message);
}

void ScheduleDialog::readBack(const QString &expression)
{
    // The builder shows what the expression says when it is one the builder could write.
    static const QRegularExpression every(QStringLiteral("^\\*/(\\d+) \\* \\* \\* \\*$"));
    static const QRegularExpression everyMinutes(QStringLiteral("^@every (\\d+)m$"));
    static const QRegularExpression daily(QStringLiteral("^(\\d{1,2}) (\\d{1,2}) \\* \\* \\*$"));
    static const QRegularExpression weekly(
        QStringLiteral("^(\\d{1,2}) (\\d{1,2}) \\* \\* ([0-6](?:,[0-6])*)$"));
    if (const QRegularExpressionMatch step = every.match(expression); step.hasMatch())
        return m_everyMinutes->setValue(step.captured(1).toInt());
    if (const QRegularExpressionMatch interval = everyMinutes.match(expression);
        interval.hasMatch())
        return m_everyMinutes->setValue(interval.captured(1).toInt());
    if (const QRegularExpressionMatch day = daily.match(expression); day.hasMatch())
        return m_dailyAt->setTime(QTime(day.captured(2).toInt(), day.captured(1).toInt()));
    const QRegularExpressionMatch week = weekly.match(expression);
    if (!week.hasMatch())
        return;
    m_weeklyAt->setTime(QTime(week.captured(2).toInt(), week.captured(1).toInt()));
    const QStringList days = week.captured(3).split(QLatin1Char(','));
    for (int weekday = 0; weekday < 7; ++weekday)
        m_weekdays.at(weekday)->setChecked(days.contains(QString::number(weekday)));
}

QString ScheduleDialog::problem() const
{
    return m_problem->text();
}

QStringList ScheduleDialog::nextFireTimes() const
{
    QStringList out;
    for (int row = 0; row < m_next->count(); ++row) {
        if (m_next->item(row)->data(Qt::UserRole).toString().isEmpty())
            out << m_next->item(row)->text();
    }
    return out;
}

QStringList ScheduleDialog::itemsOfKind(const QString &kind) const
{
    QStringList out;
    for (int row = 0; row < m_next->count(); ++row) {
        if (m_next->item(row)->data(Qt::UserRole).toString() == kind)
            out << m_next->item(row)->toolTip();
    }
    return out;
}

QStringList ScheduleDialog::dstNotes() const
{
    return itemsOfKind(QStringLiteral("dst"));
}

QStringList ScheduleDialog::excludedFireTimes() const
{
    QStringList out;
    for (int row = 0; row < m_next->count(); ++row) {
        if (m_next->item(row)->data(Qt::UserRole).toString() == QLatin1String("excluded"))
            out << m_next->item(row)->text();
    }
    return out;
}

QString ScheduleDialog::explanation() const
{
    return m_explanation->text();
}

} // namespace hg
