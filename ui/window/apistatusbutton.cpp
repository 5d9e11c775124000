#include "apistatusbutton.h"

#include "base/terminaltext.h"

#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace hg {

ApiStatusButton::ApiStatusButton(QWidget *parent)
    : QToolButton(parent)
{
    setObjectName(QStringLiteral("window.apiStatus"));
    setAutoRaise(true);
    connect(this, &QToolButton::clicked, this, &ApiStatusButton::showRequests);
    showOff();
}

void ApiStatusButton::showOff()
{
    setText(tr("API: off"));
    setToolTip(tr("The local API is off (Settings → Remote access)."));
    setAccessibleName(text());
    setVisible(false); // nothing to say until it is on
}

void ApiStatusButton::showListening(const QString &url, bool insecure)
{
    setVisible(true);
    setText(insecure ? tr("API: %1 — plain HTTP on the network").arg(url) : tr("API: %1").arg(url));
    setToolTip(insecure ? tr("The local API serves plain HTTP on an address other machines "
                             "reach: tokens cross the network unencrypted. Press to see the "
                             "last requests.")
                        : tr("The local API listens here. Press to see the last requests."));
    setAccessibleName(text());
}

void ApiStatusButton::showFailed(const QString &why)
{
    setVisible(true);
    setText(tr("API: not serving"));
    setToolTip(terminaltext::escaped(why));
    setAccessibleName(text() + QStringLiteral(": ") + toolTip());
}

void ApiStatusButton::addServed(const QList<ApiServedRequest> &requests)
{
    m_served += requests;
    if (m_served.size() > kept)
        m_served.remove(0, m_served.size() - kept);
}

QString ApiStatusButton::describeServed() const
{
    QStringList lines;
    for (auto it = m_served.crbegin(); it != m_served.crend(); ++it)
        lines << QStringLiteral("%1 %2 %3").arg(it->method, it->path).arg(it->status);
    return lines.join(QLatin1Char('\n'));
}

void ApiStatusButton::showRequests()
{
    QDialog dialog(window());
    dialog.setWindowTitle(tr("Local API: the last requests"));
    auto *table = new QTableWidget(int(m_served.size()), 6, &dialog);
    table->setObjectName(QStringLiteral("apiRequests.table"));
    table->setHorizontalHeaderLabels(
        {tr("When"), tr("Method"), tr("Path"), tr("Status"), tr("Took"), tr("Token")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    int row = 0;
    // Newest first; paths and token names are text from outside, shown escaped.
    for (auto it = m_served.crbegin(); it != m_served.crend(); ++it, ++row) {
        const QStringList cells{
            QDateTime::fromMSecsSinceEpoch(it->atMs).toString(QStringLiteral("HH:mm:ss")),
            it->method,
            terminaltext::escaped(it->path),
            QString::number(it->status),
            tr("%1 ms").arg(it->tookMs),
            terminaltext::escaped(it->token)};
        for (int column = 0; column < cells.size(); ++column)
            table->setItem(row, column, new QTableWidgetItem(cells.at(column)));
    }
    table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    auto *summary = new QLabel(text().mid(text().indexOf(QLatin1Char(' ')) + 1), &dialog);
    summary->setWordWrap(true);
    summary->setTextFormat(Qt::PlainText);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(summary);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog.resize(760, 420);
    dialog.exec();
}

} // namespace hg
