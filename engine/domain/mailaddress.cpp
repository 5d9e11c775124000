#include "mailaddress.h"

namespace hg::mailaddress {

bool isValid(const QString &address)
{
    // local@domain: one '@'; the domain's labels of letters, digits and '-', none empty
    // (a@b@c, a@.b and a@b. are refused by servers, and the mail would be lost later).
    const qsizetype at = address.indexOf(QLatin1Char('@'));
    if (at <= 0 || at == address.size() - 1 || address.indexOf(QLatin1Char('@'), at + 1) >= 0)
        return false;
    if (address.size() > 254) // RFC 5321's longest path
        return false;
    for (const QChar c : address)
        if (c.unicode() > 0x7e // no SMTPUTF8: an address in ASCII only
            || c.isSpace() || c.category() == QChar::Other_Control || c == QLatin1Char('<')
            || c == QLatin1Char('>') || c == QLatin1Char(',') || c == QLatin1Char('"'))
            return false;
    for (const QStringView label : QStringView(address).mid(at + 1).split(QLatin1Char('.'))) {
        if (label.isEmpty() || label.startsWith(QLatin1Char('-'))
            || label.endsWith(QLatin1Char('-')))
            return false;
        for (const QChar c : label)
            if (!c.isLetterOrNumber() && c != QLatin1Char('-'))
                return false;
    }
    return true;
}

} // namespace hg::mailaddress
