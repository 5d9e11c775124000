#include "chainpath.h"

namespace hg {

Result<ChainPath> ChainPath::parse(const QString &text)
{
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    if (slash <= 0 || slash == text.size() - 1 || text.indexOf(QLatin1Char('/'), slash + 1) >= 0)
        return Error::invalid(QStringLiteral("'%1' is not PROJECT/CHAIN").arg(text));
    return ChainPath{text.left(slash), text.mid(slash + 1)};
}

Status validateName(const QString &what, const QString &name)
{
    if (name.trimmed().isEmpty())
        return Error::invalid(QStringLiteral("%1 name is empty").arg(what));
    if (name != name.trimmed())
        return Error::invalid(
            QStringLiteral("%1 name '%2' starts or ends with a space").arg(what, name));
    if (name.contains(QLatin1Char('/')))
        return Error::invalid(QStringLiteral("%1 name '%2' contains '/'").arg(what, name));
    for (QChar c : name) {
        if (c.category() == QChar::Other_Control)
            return Error::invalid(
                QStringLiteral("%1 name '%2' contains a control character").arg(what, name));
    }
    if (name.size() > 200)
        return Error::invalid(QStringLiteral("%1 name is longer than 200 characters").arg(what));
    return {};
}

} // namespace hg
