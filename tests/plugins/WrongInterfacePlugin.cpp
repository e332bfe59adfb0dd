// A test fixture: a valid Qt plugin that declares an older Tessera backend interface, which the
// host must list with the reason and never instantiate.
#include <QObject>
#include <QtPlugin>

class WrongInterfacePlugin : public QObject {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID "org.tessera.Backend/0")
};

#include "WrongInterfacePlugin.moc"
