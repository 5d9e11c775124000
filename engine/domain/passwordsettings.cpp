#include "passwordsettings.h"

#include <QRegularExpression>
#include <QUrl>

namespace hg::passwordsettings {

QString named(const QString &text)
{
    static const QRegularExpression setting(
        QStringLiteral(R"((?:^|[\s;&?'"(,])(password|pwd|passwd|sslpassword)\s*=)"),
        QRegularExpression::CaseInsensitiveOption);
    // Decoded twice: "%2520password%253D" is a password for a URL decoded once more.
    QString decoded = text;
    for (int round = 0; round < 3; ++round) {
        if (const QRegularExpressionMatch found = setting.match(decoded); found.hasMatch())
            return found.captured(1).toLower();
        const QString next = QUrl::fromPercentEncoding(decoded.toUtf8());
        if (next == decoded)
            break;
        decoded = next;
    }
    return {};
}

} // namespace hg::passwordsettings
