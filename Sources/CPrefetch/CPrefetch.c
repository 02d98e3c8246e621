// The header's one function is inline; a C target needs a source file.
#include "CPrefetch.h"
