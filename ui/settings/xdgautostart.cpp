#include "xdgautostart.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>

namespace hg {

QString XdgAutostart::entryPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
           + QStringLiteral("/autostart/org.hourglass.Hourglass.desktop");
}

bool XdgAutostart::isEnabled()
{
    return QFile::exists(entryPath());
}

Status XdgAutostart::setEnabled(bool enabled, const QString &executable)
{
    const QString path = entryPath();
    if (!enabled) {
        if (QFile::exists(path) && !QFile::remove(path))
            return Error::storage(QStringLiteral("cannot remove %1").arg(path));
        return {};
    }
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return Error::storage(
            QStringLiteral("cannot create %1").arg(QFileInfo(path).absolutePath()));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return Error::storage(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    // Exec quoting per the Desktop Entry spec: double quotes, with " ` $ \ escaped.
    QString quoted = executable;
    for (const QChar special :
         {QLatin1Char('\\'), QLatin1Char('"'), QLatin1Char('`'), QLatin1Char('$')})
        quoted.replace(special, QStringLiteral("\\") + special);
    const QString entry = QStringLiteral("[Desktop Entry]\n"
                                         "Type=Application\n"
                                         "Name=Hourglass\n"
                                         "Comment=Job scheduler\n"
                                         "Exec=\"%1\" --minimized\n"
                                         "Icon=org.hourglass.Hourglass\n"
                                         "Terminal=false\n"
                                         "X-GNOME-Autostart-enabled=true\n")
                              .arg(quoted);
    file.write(entry.toUtf8());
    if (!file.flush() || !file.commit()) // commit() alone misses a full disk (Qt 6.4)
        return Error::storage(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return {};
}

} // namespace hg
