#include "isotime.h"

#include <cstdlib>

namespace hg {

QString isoWithOffset(const QDateTime &time)
{
    const int offset = time.offsetFromUtc();
    const int minutes = std::abs(offset) / 60;
    return time.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")) + (offset < 0 ? u'-' : u'+')
           + QString::number(minutes / 60).rightJustified(2, u'0') + u':'
           + QString::number(minutes % 60).rightJustified(2, u'0');
}

} // namespace hg
