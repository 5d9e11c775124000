#pragma once

#include <QDateTime>
#include <QString>

namespace hg {

struct Project
{
    qint64 id = 0;
    QString name;
    QString description;
    QDateTime createdAt;
};

} // namespace hg
