// KernelTuner as a Qt plugin interface, implemented beside Backend by the backends that can tune
// kernels (qobject_cast finds it on the plugin's root object).
#pragma once

#include "KernelTuner.h"

#include <QtPlugin>

// Bump the version whenever KernelTuner or the core types it passes change.
#define TESSERA_KERNEL_TUNER_IID "org.tessera.KernelTuner/1"

Q_DECLARE_INTERFACE(tessera::plugins::KernelTuner, TESSERA_KERNEL_TUNER_IID)
