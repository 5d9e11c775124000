#include "projectrepository.h"

#include "domain/chainpath.h"
#include "removedruns.h"
#include "runsinflight.h"
#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

const QString selectProject =
    QStringLiteral("SELECT id, name, description, created_at FROM project ");

Project readProject(const StoreQuery &query)
{
    return Project{query.int64(0), query.text(1), query.text(2), query.time(3)};
}

} // namespace

Result<Project> ProjectRepository::add(const QString &name, const QString &description)
{
    if (Status valid = validateName(QStringLiteral("project"), name); !valid)
        return valid.error();
    Project project{0, name, description, QDateTime::currentDateTimeUtc()};
    StoreQuery query(m_store, QStringLiteral("INSERT INTO project (name, description, created_at) "
                                             "VALUES (?, ?, ?) RETURNING id"));
    query.bind(name).bind(description).bind(StoreQuery::fromTime(project.createdAt));
    if (Status status = query.execSingle(tr("add project '%1'").arg(name), {}); !status) {
        if (status.error().kind == ErrorKind::AlreadyExists)
            return Error::exists(tr("project '%1' already exists").arg(name));
        return status.error();
    }
    project.id = query.int64(0);
    return project;
}

Result<Project> ProjectRepository::fetchOne(const QString &where, const QVariant &key,
                                            const QString &notFound) const
{
    StoreQuery query(m_store, selectProject + where);
    query.bind(key);
    if (Status status = query.execSingle(tr("read project"), notFound); !status)
        return status.error();
    return readProject(query);
}

Result<Project> ProjectRepository::byName(const QString &name) const
{
    return fetchOne(QStringLiteral("WHERE name = ?"), name, tr("unknown project '%1'").arg(name));
}

Result<Project> ProjectRepository::byId(qint64 id) const
{
    return fetchOne(QStringLiteral("WHERE id = ?"), id, tr("unknown project id %1").arg(id));
}

Result<QList<Project>> ProjectRepository::list() const
{
    StoreQuery query(m_store, selectProject + QStringLiteral("ORDER BY name"));
    if (Status status = query.exec(tr("list projects")); !status)
        return status.error();
    QList<Project> projects;
    while (query.next())
        projects << readProject(query);
    return projects;
}

Status ProjectRepository::rename(qint64 id, const QString &newName)
{
    if (Status valid = validateName(QStringLiteral("project"), newName); !valid)
        return valid;
    StoreQuery query(m_store, QStringLiteral("UPDATE project SET name = ? WHERE id = ?"));
    query.bind(newName).bind(id);
    if (Status status = query.exec(tr("rename project")); !status) {
        if (status.error().kind == ErrorKind::AlreadyExists)
            return Error::exists(tr("project '%1' already exists").arg(newName));
        return status;
    }
    if (query.rowsAffected() == 0)
        return Error::notFound(tr("unknown project id %1").arg(id));
    return {};
}

Result<int> ProjectRepository::chainCount(qint64 projectId) const
{
    StoreQuery query(m_store, QStringLiteral("SELECT COUNT(*) FROM chain WHERE project_id = ?"));
    query.bind(projectId);
    if (Status status = query.execSingle(tr("count chains"), {}); !status)
        return status.error();
    return query.integer(0);
}

Status ProjectRepository::remove(const QString &name, bool force)
{
    return m_store.transaction([&]() -> Status {
        const Result<Project> project = byName(name);
        if (!project)
            return project.error();
        const Result<int> chains = chainCount(project->id);
        if (!chains)
            return chains.error();
        if (Status idle = RunsInFlight::refuseRemoval(m_store, RunsInFlight::Scope::Project,
                                                      project->id, tr("project '%1'").arg(name));
            !idle)
            return idle;
        if (chains.value() > 0 && !force)
            return Error::invalid(tr("project '%1' still has %2 chain(s); remove them "
                                     "first or pass --force")
                                      .arg(name)
                                      .arg(chains.value()));
        if (Status kept = RemovedRuns::keep(m_store, RunsInFlight::Scope::Project, project->id);
            !kept)
            return kept;
        // Triggers elsewhere that wait for one of its chains go with them (ChainRepository).
        StoreQuery waiting(m_store, QStringLiteral("DELETE FROM chain_trigger WHERE id IN "
                                                   "(SELECT u.trigger_id FROM "
                                                   "chain_trigger_upstream u JOIN chain c ON "
                                                   "c.id = u.chain_id WHERE c.project_id = ?)"));
        waiting.bind(project->id);
        if (Status s = waiting.exec(tr("remove project '%1'").arg(name)); !s)
            return s;
        StoreQuery query(m_store, QStringLiteral("DELETE FROM project WHERE id = ?"));
        query.bind(project->id);
        return query.exec(tr("remove project '%1'").arg(name));
    });
}

} // namespace hg
