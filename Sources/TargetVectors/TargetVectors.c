// Everything is inline in include/TargetVectors.h; SwiftPM builds a C target only with a source file.
#include "TargetVectors.h"
