#include "recurse.h"
