#ifndef LIBRARYCLI_CSODIUM_SHIM_H
#define LIBRARYCLI_CSODIUM_SHIM_H
#include <sodium.h>
#endif
