#include "chainpath.h"

namespace hg {
namespace {

// The subject of a name's messages, translated whole ("chain name": "Name der Kette").
QString nameOf(const QString &what)
{
    static const char *const subjects[][2] = {
        {"project", QT_TRANSLATE_NOOP("hg::ChainPath", "project name")},
        {"chain", QT_TRANSLATE_NOOP("hg::ChainPath", "chain name")},
        {"task", QT_TRANSLATE_NOOP("hg::ChainPath", "task name")},
        {"connection", QT_TRANSLATE_NOOP("hg::ChainPath", "connection name")}};
    for (const auto &subject : subjects) {
        if (what == QLatin1String(subject[0]))
            return QCoreApplication::translate("hg::ChainPath", subject[1]);
    }
    return QCoreApplication::translate("hg::ChainPath", "%1 name").arg(what);
}

} // namespace

Result<ChainPath> ChainPath::parse(const QString &text)
{
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    if (slash <= 0 || slash == text.size() - 1 || text.indexOf(QLatin1Char('/'), slash + 1) >= 0)
        return Error::invalid(tr("'%1' is not PROJECT/CHAIN").arg(text));
    return ChainPath{text.left(slash), text.mid(slash + 1)};
}

Status validateName(const QString &what, const QString &name)
{
    // %1 is the subject: "chain name".
    const QString subject = nameOf(what);
    if (name.trimmed().isEmpty())
        return Error::invalid(
            QCoreApplication::translate("hg::ChainPath", "%1 is empty").arg(subject));
    if (name != name.trimmed())
        return Error::invalid(
            QCoreApplication::translate("hg::ChainPath", "%1 '%2' starts or ends with a space")
                .arg(subject, name));
    if (name.contains(QLatin1Char('/')))
        return Error::invalid(QCoreApplication::translate("hg::ChainPath", "%1 '%2' contains '/'")
                                  .arg(subject, name));
    for (QChar c : name) {
        if (c.category() == QChar::Other_Control)
            return Error::invalid(
                QCoreApplication::translate("hg::ChainPath", "%1 '%2' contains a control character")
                    .arg(subject, name));
    }
    if (name.size() > 200)
        return Error::invalid(
            QCoreApplication::translate("hg::ChainPath", "%1 is longer than 200 characters")
                .arg(subject));
    return {};
}

} // namespace hg
