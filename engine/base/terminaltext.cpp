#include "terminaltext.h"

namespace hg::terminaltext {
namespace {

bool needsEscape(char16_t c)
{
    if (c == u'\t')
        return false;
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f))
        return true;
    // Bidirectional embeddings, overrides and isolates; the invisible marks and breaks that
    // can hide or reorder text too: the zero-width space, LRM/RLM, the Arabic letter mark,
    // line and paragraph separators, the byte order mark. (The zero-width joiners stay: they
    // are part of emoji and of Persian and Indic writing.)
    return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200b
           || c == 0x200e || c == 0x200f || c == 0x061c || c == 0x2028 || c == 0x2029
           || c == 0xfeff;
}

} // namespace

QString escaped(const QString &text)
{
    qsizetype first = 0;
    while (first < text.size() && !needsEscape(text.at(first).unicode()))
        ++first;
    if (first == text.size())
        return text; // the common case: nothing to copy
    QString out = text.left(first);
    out.reserve(text.size() + 16);
    for (qsizetype i = first; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if (!needsEscape(c)) {
            out += QChar(c);
        } else if (c == u'\n') {
            out += QLatin1String("\\n");
        } else if (c == u'\r') {
            out += QLatin1String("\\r");
        } else if (c == 0x1b) {
            out += QLatin1String("\\e");
        } else if (c < 0x100) {
            out += QStringLiteral("\\x%1").arg(int(c), 2, 16, QLatin1Char('0'));
        } else {
            out += QStringLiteral("\\u%1").arg(int(c), 4, 16, QLatin1Char('0'));
        }
    }
    return out;
}

} // namespace hg::terminaltext
