// The declaration in include/CFuzzDriver.h is all this module provides; libFuzzer defines it.
#include "CFuzzDriver.h"
