/* vis-baseline-private.h: shared between the baseline decoders. */
#pragma once

#include <stddef.h>

#include "vis-detect.h"

bool vis_baseline_fill (const EngPrinting *printing, const char *data, size_t len, const float xy[4][2],
                        VisDetection *d);
