// SPDX-License-Identifier: Apache-2.0
#include "ttc_testutil.h"
int main(void) { return 0; }
