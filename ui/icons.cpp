#include "icons.h"

#include <QIconEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

#include <cmath>

namespace ddpdesk::ui {
namespace {

const QColor kBlue(0x00, 0x67, 0xc0); // Windows accent blue
const QColor kGreen(0x10, 0x7c, 0x10);
const QColor kRed(0xc4, 0x2b, 0x1c);
const QColor kAmber(0xf2, 0xa9, 0x00);
const QColor kGrey(0x44, 0x44, 0x44);

void paintBadge(QPainter& p, const QColor& fill, const QString& glyph) {
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawEllipse(QRectF(1, 1, 30, 30));
    QFont f = p.font();
    f.setPixelSize(20);
    f.setBold(true);
    p.setFont(f);
    p.setPen(Qt::white);
    p.drawText(QRectF(0, 0, 32, 32), Qt::AlignCenter, glyph);
}

void fillTriangle(QPainter& p, QPointF a, QPointF b, QPointF c, const QColor& fill) {
    QPainterPath path;
    path.moveTo(a);
    path.lineTo(b);
    path.lineTo(c);
    path.closeSubpath();
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawPath(path);
}

// Paints on a 32x32 logical canvas; QPainter scales it to the requested size.
void paintIcon(QPainter& p, IconId id) {
    p.setRenderHint(QPainter::Antialiasing);
    switch (id) {
    case IconId::App: {
        p.setPen(Qt::NoPen);
        p.setBrush(kBlue);
        p.drawRoundedRect(QRectF(1, 1, 30, 30), 6, 6);
        // Four ranks joined in a ring: the allreduce.
        const QPointF pts[] = {{9, 9}, {23, 9}, {23, 23}, {9, 23}};
        p.setPen(QPen(QColor(255, 255, 255, 200), 2));
        p.setBrush(Qt::NoBrush);
        p.drawPolygon(pts, 4);
        p.setPen(Qt::NoPen);
        p.setBrush(Qt::white);
        for (const QPointF& c : pts)
            p.drawEllipse(c, 4, 4);
        break;
    }
    case IconId::Setup: {
        p.setPen(QPen(kGrey, 2.5, Qt::SolidLine, Qt::RoundCap));
        for (int i = 0; i < 3; ++i) {
            const double y = 7 + i * 9;
            p.drawLine(QPointF(4, y), QPointF(28, y));
        }
        p.setBrush(kBlue);
        p.setPen(QPen(Qt::white, 1.5));
        p.drawEllipse(QPointF(11, 7), 4, 4);
        p.drawEllipse(QPointF(21, 16), 4, 4);
        p.drawEllipse(QPointF(14, 25), 4, 4);
        break;
    }
    case IconId::Run:
    case IconId::Start:
        fillTriangle(p, {8, 4}, {28, 16}, {8, 28}, kGreen);
        break;
    case IconId::Stop:
        p.setPen(Qt::NoPen);
        p.setBrush(kRed);
        p.drawRoundedRect(QRectF(6, 6, 20, 20), 3, 3);
        break;
    case IconId::Demo: {
        p.setPen(Qt::NoPen);
        p.setBrush(kAmber);
        QPainterPath star;
        for (int i = 0; i < 10; ++i) {
            const double r = (i % 2) ? 6 : 14;
            const double a = -M_PI / 2 + i * M_PI / 5;
            const QPointF pt(16 + r * std::cos(a), 17 + r * std::sin(a));
            i ? star.lineTo(pt) : star.moveTo(pt);
        }
        star.closeSubpath();
        p.drawPath(star);
        break;
    }
    case IconId::Doctor:
        p.setPen(Qt::NoPen);
        p.setBrush(kRed);
        p.drawRoundedRect(QRectF(12, 3, 8, 26), 2, 2);
        p.drawRoundedRect(QRectF(3, 12, 26, 8), 2, 2);
        break;
    case IconId::Compare: {
        p.setPen(Qt::NoPen);
        const QColor bars[] = {kBlue.lighter(150), kBlue.lighter(120), kBlue};
        for (int i = 0; i < 3; ++i) {
            p.setBrush(bars[i]);
            const double h = 8 + i * 8;
            p.drawRect(QRectF(4 + i * 9, 29 - h, 7, h));
        }
        p.setPen(QPen(kGrey, 1.5, Qt::DashLine));
        p.drawLine(QPointF(3, 28), QPointF(29, 3));
        break;
    }
    case IconId::History:
        p.setPen(QPen(kGrey, 2.5));
        p.setBrush(Qt::white);
        p.drawEllipse(QRectF(3, 3, 26, 26));
        p.setPen(QPen(kBlue, 2.5, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(16, 16), QPointF(16, 8));
        p.drawLine(QPointF(16, 16), QPointF(22, 19));
        break;
    case IconId::Folder:
        p.setPen(Qt::NoPen);
        p.setBrush(kAmber.darker(110));
        p.drawRoundedRect(QRectF(3, 6, 12, 6), 2, 2);
        p.setBrush(kAmber);
        p.drawRoundedRect(QRectF(3, 9, 26, 18), 2, 2);
        break;
    case IconId::Error:
        paintBadge(p, kRed, QStringLiteral("\u00d7"));
        break;
    case IconId::Warning: {
        fillTriangle(p, {16, 2}, {31, 29}, {1, 29}, kAmber);
        QFont f = p.font();
        f.setPixelSize(18);
        f.setBold(true);
        p.setFont(f);
        p.setPen(Qt::black);
        p.drawText(QRectF(0, 8, 32, 22), Qt::AlignCenter, QStringLiteral("!"));
        break;
    }
    case IconId::Info:
        paintBadge(p, kBlue, QStringLiteral("i"));
        break;
    case IconId::Ok:
        paintBadge(p, kGreen, QStringLiteral("\u2713"));
        break;
    }
}

class PaintedIconEngine final : public QIconEngine {
public:
    explicit PaintedIconEngine(IconId id) : m_id(id) {}
    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State) override {
        painter->save();
        painter->translate(rect.topLeft());
        painter->scale(rect.width() / 32.0, rect.height() / 32.0);
        if (mode == QIcon::Disabled) painter->setOpacity(0.35);
        paintIcon(*painter, m_id);
        painter->restore();
    }
    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override {
        QPixmap pm(size);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        paint(&p, QRect(QPoint(0, 0), size), mode, state);
        return pm;
    }
    QIconEngine* clone() const override { return new PaintedIconEngine(m_id); }

private:
    IconId m_id;
};

} // namespace

QIcon icon(IconId id) {
    return QIcon(new PaintedIconEngine(id));
}

} // namespace ddpdesk::ui

// Q_INIT_RESOURCE must be used outside any namespace.
static void initDdpdeskResources() {
    Q_INIT_RESOURCE(ddpdesk);
}

void ddpdesk::ui::initResources() {
    initDdpdeskResources();
}
