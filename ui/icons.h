#pragma once

// Icons painted in code: the Qt build may lack the SVG image plugin (Debian's qt6-svg is optional), and
// painted icons stay sharp at any device pixel ratio.

#include <QIcon>

namespace ddpdesk::ui {

enum class IconId {
    App,
    Setup,
    Run,
    Doctor,
    Compare,
    History,
    Start,
    Stop,
    Demo,
    Error,
    Warning,
    Info,
    Ok,
    Folder
};

QIcon icon(IconId id);

} // namespace ddpdesk::ui

namespace ddpdesk::ui {

// Registers the resources compiled into this static library (resources/ddpdesk.qrc); call once after
// QApplication.
void initResources();

} // namespace ddpdesk::ui
