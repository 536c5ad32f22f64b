#pragma once
#include <fftw3.h>
