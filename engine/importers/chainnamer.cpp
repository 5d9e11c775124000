#include "chainnamer.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>

namespace hg {
namespace {

bool isAssignment(const QString &word)
{
    static const QRegularExpression assignment(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    return assignment.match(word).hasMatch();
}

} // namespace

QString ChainNamer::programOf(const QString &command)
{
    // Words and shell operators: good enough to find a name, never executed.
    static const QRegularExpression tokens(QStringLiteral(R"(&&|\|\||[;&|()<>`]|[^\s;&|()<>`]+)"));
    QStringList words;
    for (QRegularExpressionMatchIterator it = tokens.globalMatch(command); it.hasNext();)
        words << it.next().captured().remove(QLatin1Char('"')).remove(QLatin1Char('\''));
    const auto isOperator = [](const QString &word) {
        return !word.isEmpty() && QStringLiteral(";&|()<>`").contains(word.front());
    };
    // Words that precede the program, and how many arguments of theirs to skip as well.
    static const QHash<QString, int> prefixes{
        {QStringLiteral("cd"), 1},     {QStringLiteral("if"), 0},
        {QStringLiteral("then"), 0},   {QStringLiteral("!"), 0},
        {QStringLiteral("sudo"), 0},   {QStringLiteral("nice"), 0},
        {QStringLiteral("ionice"), 0}, {QStringLiteral("nohup"), 0},
        {QStringLiteral("exec"), 0},   {QStringLiteral("env"), 0},
        {QStringLiteral("time"), 0},   {QStringLiteral("timeout"), 1},
        {QStringLiteral("flock"), 1},  {QStringLiteral("chronic"), 0},
        {QStringLiteral("{"), 0},      {QStringLiteral("}"), 0}};
    static const QSet<QString> tests{QStringLiteral("test"), QStringLiteral("["),
                                     QStringLiteral("[[")};
    for (qsizetype i = 0; i < words.size(); ++i) {
        const QString &word = words.at(i);
        const QString base = word.mid(word.lastIndexOf(QLatin1Char('/')) + 1);
        bool number = false;
        (void)word.toDouble(&number);
        if (number || isOperator(word) || word.startsWith(QLatin1Char('-')) || isAssignment(word))
            continue;
        if (tests.contains(base)) { // `test -x FILE ||`: the file is not what runs
            while (i + 1 < words.size() && !isOperator(words.at(i + 1)))
                ++i;
            continue;
        }
        if (const auto prefix = prefixes.constFind(base); prefix != prefixes.cend()) {
            i += *prefix;
            continue;
        }
        if (base == QLatin1String("run-parts")) { // named after the folder it runs
            for (qsizetype j = i + 1; j < words.size() && !isOperator(words.at(j)); ++j) {
                if (!words.at(j).startsWith(QLatin1Char('-')))
                    return words.at(j).mid(words.at(j).lastIndexOf(QLatin1Char('/')) + 1);
            }
        }
        return base;
    }
    return {};
}

QString ChainNamer::fromCommand(const QString &command)
{
    return fromName(programOf(command));
}

QString ChainNamer::fromName(const QString &name)
{
    QString safe;
    for (QChar c : name.mid(name.lastIndexOf(QLatin1Char('/')) + 1)) {
        if (c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_')
            || c == QLatin1Char('-'))
            safe += c;
        else if (!safe.endsWith(QLatin1Char('-')))
            safe += QLatin1Char('-');
    }
    while (safe.startsWith(QLatin1Char('-')) || safe.startsWith(QLatin1Char('.')))
        safe.remove(0, 1);
    while (safe.endsWith(QLatin1Char('-')))
        safe.chop(1);
    return unique(safe.isEmpty() ? QStringLiteral("job") : safe.left(60));
}

QString ChainNamer::unique(const QString &base)
{
    QString name = base;
    // Each base remembers the last number it gave: 8,000 lines of one program counted from
    // 2 every time took 21 s (quadratic), found by a hostile test.
    int &next = m_nextNumber[base];
    for (int n = std::max(2, next); m_taken.contains(name); ++n) {
        name = QStringLiteral("%1-%2").arg(base, QString::number(n));
        next = n + 1;
    }
    m_taken.insert(name);
    return name;
}

} // namespace hg
