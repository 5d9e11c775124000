#pragma once

#include "importreport.h"
#include "store/projectexporter.h"

#include <QJsonArray>
#include <QJsonObject>

namespace hg {

// What an importer produced: chains in the export document's shape (so ProjectImporter
// writes them, validated, all in one transaction) and the report of what became what.
struct ImportedDefinitions
{
    QString project;
    QJsonArray chains;
    ImportReport report;

    QJsonObject document() const
    {
        return {{QStringLiteral("format"), ProjectExporter::formatName()},
                {QStringLiteral("version"), ProjectExporter::formatVersion},
                {QStringLiteral("projects"),
                 QJsonArray{QJsonObject{{QStringLiteral("name"), project},
                                        {QStringLiteral("chains"), chains}}}}};
    }
};

} // namespace hg
