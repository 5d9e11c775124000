#include "storebanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace hg {
namespace {

// The engine's messages start in lower case, to follow "hourglass: " on a command line.
QString capitalised(QString text)
{
    if (!text.isEmpty())
        text[0] = text.at(0).toUpper();
    return text;
}

} // namespace

StoreBanner::StoreBanner(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_export(new QPushButton(tr("&Export what can be read…"), this))
    , m_restore(new QPushButton(tr("Restore from &backup…"), this))
{
    setObjectName(QStringLiteral("storeBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse); // the path can be copied
    m_icon->setAlignment(Qt::AlignTop);
    m_export->setObjectName(QStringLiteral("storeBanner.export"));
    m_restore->setObjectName(QStringLiteral("storeBanner.restore"));
    connect(m_export, &QPushButton::clicked, this, &StoreBanner::exportRequested);
    connect(m_restore, &QPushButton::clicked, this, &StoreBanner::restoreRequested);
    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_export);
    buttons->addWidget(m_restore);
    buttons->addStretch();
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    layout->addLayout(buttons);
    hide();
}

void StoreBanner::setLook(bool alarming)
{
    const QStyle::StandardPixmap icon =
        alarming ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxInformation;
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(32, 32));
    // Fixed light colours with dark text: readable in a light and a dark scheme alike.
    QPalette colours = palette();
    colours.setColor(QPalette::Window,
                     alarming ? QColor(0xfd, 0xec, 0xea) : QColor(0xfe, 0xf7, 0xe0));
    colours.setColor(QPalette::WindowText,
                     alarming ? QColor(0x5f, 0x21, 0x20) : QColor(0x4d, 0x3b, 0x00));
    setPalette(colours);
    m_text->setPalette(colours);
}

void StoreBanner::showDamage(const QString &file, const QString &damage)
{
    setLook(true);
    m_text->setText(
        tr("<b>This store is damaged and was opened read-only.</b><br>%1<br>SQLite's check "
           "found: %2<br>Nothing is written to it and no schedule runs. Save what can still "
           "be read, or put a backup in its place.")
            .arg(file.toHtmlEscaped(), damage.toHtmlEscaped()));
    m_export->show();
    m_restore->show();
    setAccessibleName(tr("The store is damaged"));
    setAccessibleDescription(text());
    show();
}

void StoreBanner::showEngineElsewhere(const QString &why)
{
    setLook(false);
    m_text->setText(tr("<b>The engine does not run in this window.</b><br>%1<br>The window "
                       "still shows the store; runs started here are queued for the engine "
                       "that serves it.")
                        .arg(capitalised(why).toHtmlEscaped()));
    m_export->hide();
    m_restore->hide();
    setAccessibleName(tr("The engine does not run here"));
    setAccessibleDescription(text());
    show();
}

void StoreBanner::showStoreGone(const QString &why)
{
    setLook(true);
    m_text->setText(
        tr("<b>The store's file was deleted or replaced, and the engine stopped.</b><br>%1<br>"
           "Nothing more is saved and no schedule runs. The window still reads the old file: "
           "save what it shows, then start Hourglass again.")
            .arg(capitalised(why).toHtmlEscaped()));
    m_export->show();
    m_restore->hide(); // a restore would write beside a store this window no longer has
    setAccessibleName(tr("The store's file is gone"));
    setAccessibleDescription(text());
    show();
}

QString StoreBanner::text() const
{
    return QTextDocumentFragment::fromHtml(m_text->text()).toPlainText();
}

} // namespace hg
