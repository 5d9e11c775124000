#include "sqlscript.h"

#include <QRegularExpression>

namespace hg::sqlscript {
namespace {

// The statement's first words, upper-cased, comments and blanks skipped.
QString leadingWords(const QString &statement, int count)
{
    static const QRegularExpression comments(QStringLiteral(R"(--[^\n]*|/\*.*?\*/)"),
                                             QRegularExpression::DotMatchesEverythingOption);
    QString text = statement;
    text.remove(comments);
    return text.simplified().section(QLatin1Char(' '), 0, count - 1).toUpper();
}

bool isTrigger(const QString &statement)
{
    const QString start = leadingWords(statement, 4);
    return start.startsWith(QLatin1String("CREATE ")) && start.contains(QLatin1String("TRIGGER"));
}

bool hasContent(const QString &statement)
{
    return !leadingWords(statement, 1).isEmpty();
}

// Past a dollar-quote opening tag at `i` ($$ or $name$): the tag, or empty when none starts.
QString dollarTag(const QString &text, qsizetype i)
{
    static const QRegularExpression tag(QStringLiteral(R"(\$([A-Za-z_][A-Za-z0-9_]*)?\$)"));
    const QRegularExpressionMatch match = tag.match(text, i, QRegularExpression::NormalMatch,
                                                    QRegularExpression::AnchorAtOffsetMatchOption);
    return match.hasMatch() ? match.captured() : QString();
}

} // namespace

QStringList split(const QString &text)
{
    QStringList statements;
    QString current;
    const auto end = [&] {
        if (hasContent(current))
            statements << current.trimmed();
        current.clear();
    };
    for (qsizetype i = 0; i < text.size();) {
        const QChar c = text.at(i);
        const QChar next = i + 1 < text.size() ? text.at(i + 1) : QChar();
        qsizetype until = -1; // where a quoted or commented stretch ends (exclusive)
        if (c == QLatin1Char('\'') || c == QLatin1Char('"') || c == QLatin1Char('`')) {
            until = i + 1;
            while (until < text.size()) {
                if (text.at(until) == QLatin1Char('\\') && c == QLatin1Char('\'')
                    && until + 1 < text.size()) {
                    until += 2; // MySQL's backslash escape; harmless elsewhere
                    continue;
                }
                if (text.at(until++) == c) {
                    if (until < text.size() && text.at(until) == c) {
                        ++until; // a doubled quote stays inside
                        continue;
                    }
                    break;
                }
            }
        } else if (c == QLatin1Char('-') && next == QLatin1Char('-')) {
            until = text.indexOf(QLatin1Char('\n'), i);
            until = until < 0 ? text.size() : until;
        } else if (c == QLatin1Char('/') && next == QLatin1Char('*')) {
            until = text.indexOf(QLatin1String("*/"), i + 2);
            until = until < 0 ? text.size() : until + 2;
        } else if (c == QLatin1Char('$')) {
            if (const QString tag = dollarTag(text, i); !tag.isEmpty()) {
                until = text.indexOf(tag, i + tag.size());
                until = until < 0 ? text.size() : until + tag.size();
            }
        }
        if (until > i) {
            current += text.mid(i, until - i);
            i = until;
            continue;
        }
        static const QRegularExpression triggerEnd(QStringLiteral(R"(\bEND\s*$)"),
                                                   QRegularExpression::CaseInsensitiveOption);
        if (c == QLatin1Char(';') && (!isTrigger(current) || current.contains(triggerEnd))) {
            end();
            ++i;
            continue;
        }
        current += c;
        ++i;
    }
    end();
    return statements;
}

bool commitsImplicitlyOnMySql(const QString &statement)
{
    static const QStringList verbs{
        QStringLiteral("CREATE"),  QStringLiteral("ALTER"),    QStringLiteral("DROP"),
        QStringLiteral("RENAME"),  QStringLiteral("TRUNCATE"), QStringLiteral("GRANT"),
        QStringLiteral("REVOKE"),  QStringLiteral("LOCK"),     QStringLiteral("UNLOCK"),
        QStringLiteral("ANALYZE"), QStringLiteral("OPTIMIZE"), QStringLiteral("REPAIR"),
        QStringLiteral("FLUSH"),   QStringLiteral("INSTALL"),  QStringLiteral("UNINSTALL")};
    const QString verb = leadingWords(statement, 1);
    // CREATE TEMPORARY TABLE and DROP TEMPORARY TABLE are the exceptions.
    if (leadingWords(statement, 2).endsWith(QLatin1String(" TEMPORARY")))
        return false;
    return verbs.contains(verb);
}

QString transactionControl(const QString &statement)
{
    static const QStringList verbs{QStringLiteral("BEGIN"),    QStringLiteral("START"),
                                   QStringLiteral("COMMIT"),   QStringLiteral("END"),
                                   QStringLiteral("ROLLBACK"), QStringLiteral("ABORT")};
    const QString verb = leadingWords(statement, 1);
    if (!verbs.contains(verb))
        return {};
    const QString two = leadingWords(statement, 2);
    if (verb == QLatin1String("START") && two != QLatin1String("START TRANSACTION"))
        return {};
    // ROLLBACK TO [SAVEPOINT] x undoes part of the transaction and leaves it open.
    const bool namedWork =
        two == QLatin1String("ROLLBACK WORK") || two == QLatin1String("ROLLBACK TRANSACTION");
    if (verb == QLatin1String("ROLLBACK")
        && (two == QLatin1String("ROLLBACK TO")
            || (namedWork && leadingWords(statement, 3).endsWith(QLatin1String(" TO")))))
        return {};
    return verb;
}

} // namespace hg::sqlscript
