#pragma once

#include <QString>
#include <QStringList>

#include <optional>
#include <span>
#include <utility>

namespace hg {

// Each persisted enum specialises EnumNames with the one table that maps it to the text
// stored in the database, shown on the command line and written in export documents.
template<typename E>
struct EnumNames;

template<typename E>
QString enumName(E value)
{
    for (const auto &[candidate, name] : EnumNames<E>::table())
        if (candidate == value)
            return QString::fromLatin1(name);
    return {};
}

template<typename E>
std::optional<E> enumFromString(QStringView text)
{
    for (const auto &[candidate, name] : EnumNames<E>::table())
        if (text == QLatin1StringView(name))
            return candidate;
    return std::nullopt;
}

// "a|b|c", for usage text and error messages.
template<typename E>
QString enumChoices()
{
    QStringList names;
    for (const auto &entry : EnumNames<E>::table())
        names << QString::fromLatin1(entry.second);
    return names.join(QLatin1Char('|'));
}

#define HG_ENUM_NAMES(Enum, ...)                                                                   \
    template<>                                                                                     \
    struct EnumNames<Enum>                                                                         \
    {                                                                                              \
        static std::span<const std::pair<Enum, const char *>> table()                              \
        {                                                                                          \
            static constexpr std::pair<Enum, const char *> entries[] = {__VA_ARGS__};              \
            return entries;                                                                        \
        }                                                                                          \
    };

} // namespace hg
