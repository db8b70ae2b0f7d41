// Everything is inline in include/StreamingStores.h; SwiftPM builds a C target only with a source file.
#include "StreamingStores.h"
