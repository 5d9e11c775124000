#include "engineconfig.h"

namespace hg {

QProcessEnvironment EngineConfig::safeEnvironment(const QProcessEnvironment &from)
{
    QProcessEnvironment safe;
    safe.insert(QStringLiteral("PATH"),
                QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"));
    safe.insert(QStringLiteral("SHELL"), QStringLiteral("/bin/sh"));
    safe.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    for (const char *name : {"HOME", "USER", "LOGNAME", "LANG", "TZ", "TMPDIR"}) {
        const QString key = QString::fromLatin1(name);
        if (from.contains(key))
            safe.insert(key, from.value(key));
    }
    return safe;
}

} // namespace hg
