// Answers many fire-time queries in one process for the croniter differential test.
// Input lines:  DIALECT <TAB> ZONE <TAB> FROM_EPOCH <TAB> UNTIL_EPOCH <TAB> MAX_COUNT <TAB> EXPR
// Output lines: the fire times as epoch seconds separated by spaces, or "ERR message".
#include "cron/cronexpression.h"

#include <QCoreApplication>
#include <QTextStream>
#include <QTimeZone>

using namespace hg;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream in(stdin);
    QTextStream out(stdout);
    QString line;
    while (in.readLineInto(&line)) {
        const QStringList parts = line.split(QLatin1Char('\t'));
        if (parts.size() != 6) {
            out << "ERR bad input line\n";
            continue;
        }
        const CronDialect dialect =
            enumFromString<CronDialect>(parts.at(0)).value_or(CronDialect::Auto);
        const QTimeZone zone(parts.at(1).toUtf8());
        const qint64 until = parts.at(3).toLongLong();
        const int count = parts.at(4).toInt();
        const Result<CronExpression> expression = CronExpression::parse(parts.at(5), dialect);
        if (!expression) {
            out << "ERR " << expression.error().message << '\n';
            continue;
        }
        QStringList times;
        QDateTime at = QDateTime::fromSecsSinceEpoch(parts.at(2).toLongLong(), Qt::UTC);
        while (times.size() < count) {
            const std::optional<QDateTime> fire = expression->next(at, zone);
            if (!fire || fire->toSecsSinceEpoch() > until)
                break;
            times << QString::number(fire->toSecsSinceEpoch());
            at = *fire;
        }
        out << times.join(QLatin1Char(' ')) << '\n';
    }
    return 0;
}
