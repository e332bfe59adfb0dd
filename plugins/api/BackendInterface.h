// Backend as a Qt plugin interface. The IID carries the interface version: a plugin built
// against another version is listed with the reason and never instantiated.
#pragma once

#include "Backend.h"

#include <QtPlugin>

// Bump the version whenever Backend, GraphExecutor, OpProfiler or the core types they pass change.
// (One literal each: moc reads Q_PLUGIN_METADATA's IID and does not join adjacent literals.)
#define TESSERA_BACKEND_IID "org.tessera.Backend/2"
#define TESSERA_BACKEND_IID_PREFIX "org.tessera.Backend/"

Q_DECLARE_INTERFACE(tessera::plugins::Backend, TESSERA_BACKEND_IID)
