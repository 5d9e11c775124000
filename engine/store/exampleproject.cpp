#include "exampleproject.h"

#include "projectimporter.h"
#include "projectrepository.h"
#include "store.h"

#include <QFile>

namespace hg {

QByteArray ExampleProject::document()
{
    QFile file(QStringLiteral(":/example/example.json"));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

Status ExampleProject::install(Store &store)
{
    if (ProjectRepository(store).byName(QString::fromLatin1(projectName)))
        return {};
    const Result<ProjectImporter::Summary> imported =
        ProjectImporter(store).importDocument(document());
    if (!imported)
        return imported.error();
    return {};
}

} // namespace hg
