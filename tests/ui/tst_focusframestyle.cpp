#include "settings/colorscheme.h"
#include "settings/focusframestyle.h"

#include <QApplication>
#include <QCheckBox>
#include <QImage>
#include <QPainter>
#include <QPlainTextEdit>
#include <QStyleFactory>
#include <QStyleOptionFocusRect>
#include <QTest>

using namespace hg;

// Where the keyboard focus is must be seen at a glance (issue 34: on check boxes, tabs, table
// cells and the tree Fusion's frame was a faint line).
class TestFocusFrameStyle final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void focusFrame_isASolidFrameInTheHighlightColour();
    void focusFrame_onASelectedRowTakesTheHighlightedTextColour();
    void everyColourScheme_keepsTheFocusFrame();
    void checkBoxWithFocus_showsTheFrame();
    void framedViewWithFocus_showsTheFrame();

private:
    static int pixelsOf(const QImage &image, const QColor &colour);
};

int TestFocusFrameStyle::pixelsOf(const QImage &image, const QColor &colour)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            count += image.pixelColor(x, y).rgb() == colour.rgb() ? 1 : 0;
    }
    return count;
}

void TestFocusFrameStyle::focusFrame_isASolidFrameInTheHighlightColour()
{
    FocusFrameStyle style(QStyleFactory::create(QStringLiteral("Fusion")));
    QImage image(60, 24, QImage::Format_RGB32);
    image.fill(Qt::white);
    QStyleOptionFocusRect option;
    option.rect = image.rect();
    option.palette = style.standardPalette();
    {
        QPainter painter(&image);
        style.drawPrimitive(QStyle::PE_FrameFocusRect, &option, &painter);
    }
    // A frame two pixels wide around 60x24, rounded at its corners: well over 200 pixels
    // exactly the highlight colour (Fusion's own frame has none: it blends it).
    const QColor highlight = option.palette.color(QPalette::Active, QPalette::Highlight);
    QVERIFY2(pixelsOf(image, highlight) > 200,
             qPrintable(QString::number(pixelsOf(image, highlight))));
    QImage fusion(60, 24, QImage::Format_RGB32);
    fusion.fill(Qt::white);
    {
        QPainter painter(&fusion);
        style.baseStyle()->drawPrimitive(QStyle::PE_FrameFocusRect, &option, &painter);
    }
    QVERIFY(pixelsOf(fusion, highlight) < pixelsOf(image, highlight) / 2);
    // Nothing inside the frame is painted over.
    QCOMPARE(image.pixelColor(30, 12), QColor(Qt::white));
}

void TestFocusFrameStyle::focusFrame_onASelectedRowTakesTheHighlightedTextColour()
{
    FocusFrameStyle style(QStyleFactory::create(QStringLiteral("Fusion")));
    QStyleOptionFocusRect option;
    option.palette = style.standardPalette();
    option.backgroundColor = option.palette.color(QPalette::Highlight);
    QImage image(60, 24, QImage::Format_RGB32);
    image.fill(option.backgroundColor);
    option.rect = image.rect();
    {
        QPainter painter(&image);
        style.drawPrimitive(QStyle::PE_FrameFocusRect, &option, &painter);
    }
    QVERIFY(pixelsOf(image, option.palette.color(QPalette::Active, QPalette::HighlightedText))
            > 200);
}

void TestFocusFrameStyle::everyColourScheme_keepsTheFocusFrame()
{
    for (const QString &scheme :
         {ColorScheme::dark(), ColorScheme::light(), ColorScheme::system()}) {
        ColorScheme::apply(scheme);
        QVERIFY2(qobject_cast<FocusFrameStyle *>(QApplication::style()), qPrintable(scheme));
        QVERIFY(!FocusFrameStyle::baseOf(QApplication::style())->name().isEmpty());
    }
}

void TestFocusFrameStyle::checkBoxWithFocus_showsTheFrame()
{
    FocusFrameStyle::install(QStyleFactory::create(QStringLiteral("Fusion")));
    QCheckBox box(QStringLiteral("Only the selected chain"));
    box.show();
    QApplication::setActiveWindow(&box);
    QVERIFY(QTest::qWaitForWindowActive(&box));
    box.clearFocus(); // a window's only focusable widget takes the focus as it shows
    QTRY_VERIFY(!box.hasFocus());
    const QImage without = box.grab().toImage();
    box.setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(box.hasFocus());
    const QImage with = box.grab().toImage();
    const QColor highlight = box.palette().color(QPalette::Active, QPalette::Highlight);
    QVERIFY2(pixelsOf(with, highlight) > pixelsOf(without, highlight) + 100,
             qPrintable(QStringLiteral("%1 against %2")
                            .arg(pixelsOf(with, highlight))
                            .arg(pixelsOf(without, highlight))));
}

// The canvas, a list or a script editor: a frame of their own, drawn round them with the
// focus (helper-13 could not see where the focus was on the canvas or in an empty list).
void TestFocusFrameStyle::framedViewWithFocus_showsTheFrame()
{
    FocusFrameStyle::install(QStyleFactory::create(QStringLiteral("Fusion")));
    QWidget window;
    auto *before = new QPlainTextEdit(&window);
    auto *editor = new QPlainTextEdit(&window);
    before->setGeometry(0, 0, 200, 100);
    editor->setGeometry(0, 110, 200, 100);
    window.resize(200, 220);
    window.show();
    QApplication::setActiveWindow(&window);
    QVERIFY(QTest::qWaitForWindowActive(&window));
    before->setFocus();
    QTRY_VERIFY(before->hasFocus());
    const QColor highlight = editor->palette().color(QPalette::Active, QPalette::Highlight);
    const int without = pixelsOf(editor->grab().toImage(), highlight);
    editor->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(editor->hasFocus());
    const int with = pixelsOf(editor->grab().toImage(), highlight);
    // Two pixels round 200x100: some 1,100 pixels.
    QVERIFY2(with > without + 800,
             qPrintable(QStringLiteral("%1 against %2").arg(with).arg(without)));
}

QTEST_MAIN(TestFocusFrameStyle)
#include "tst_focusframestyle.moc"
