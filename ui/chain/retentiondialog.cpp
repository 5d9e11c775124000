#include "retentiondialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace hg {

RetentionDialog::RetentionDialog(const Retention &retention, QWidget *parent)
    : QDialog(parent)
    , m_keepRuns(spinBox(retention.keepRuns, tr("all"), tr(" runs"), QStringLiteral("keepRuns")))
    , m_keepDays(
          spinBox(retention.keepDays, tr("no limit"), tr(" days"), QStringLiteral("keepDays")))
    , m_keepFailedRuns(spinBox(retention.keepFailedRuns, tr("as other runs"), tr(" runs"),
                               QStringLiteral("keepFailedRuns")))
    , m_keepFailedDays(spinBox(retention.keepFailedDays, tr("as other runs"), tr(" days"),
                               QStringLiteral("keepFailedDays")))
{
    setWindowTitle(tr("Keep run history"));
    auto *intro = new QLabel(tr("Finished runs past these limits are removed with their log. "
                                "Running and queued runs always stay."),
                             this);
    intro->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("Keep the &newest:"), m_keepRuns);
    form->addRow(tr("Keep runs of the &last:"), m_keepDays);
    form->addRow(tr("Failed runs, keep the ne&west:"), m_keepFailedRuns);
    form->addRow(tr("Failed runs, keep those of the l&ast:"), m_keepFailedDays);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QSpinBox *RetentionDialog::spinBox(int value, const QString &noLimit, const QString &suffix,
                                   const QString &objectName)
{
    auto *box = new QSpinBox(this);
    box->setObjectName(objectName);
    box->setRange(0, 1000000);
    box->setSpecialValueText(noLimit); // shown for 0
    box->setSuffix(suffix);
    box->setValue(value);
    return box;
}

Retention RetentionDialog::retention() const
{
    return Retention{m_keepRuns->value(), m_keepDays->value(), m_keepFailedRuns->value(),
                     m_keepFailedDays->value()};
}

QString RetentionDialog::summary(const Retention &r)
{
    if (!r.isSet())
        return tr("History: all runs kept");
    QStringList parts;
    if (r.keepRuns > 0)
        parts << tr("newest %n run(s)", nullptr, r.keepRuns);
    if (r.keepDays > 0)
        parts << tr("last %n day(s)", nullptr, r.keepDays);
    if (r.keepFailedRuns > 0 || r.keepFailedDays > 0) {
        QStringList failed;
        if (r.keepFailedRuns > 0)
            failed << tr("newest %n", nullptr, r.keepFailedRuns);
        if (r.keepFailedDays > 0)
            failed << tr("last %n day(s)", nullptr, r.keepFailedDays);
        parts << tr("failed: %1").arg(failed.join(tr(", ")));
    }
    return tr("History: %1").arg(parts.join(tr(", ")));
}

} // namespace hg
