// SPDX-License-Identifier: Apache-2.0
/*
 * Whether curses can drive the terminal, asked before the live display
 * starts. Apart from tui.c because <term.h> defines macros (tab, status,
 * columns ...) that collide with the display's names.
 */
#include <curses.h>
#include <stdlib.h>
#include <term.h>
#include <unistd.h>

#include "smi.h"

bool smi_tui_usable(char *why, size_t len)
{
	const char *term = getenv("TERM");
	bool ok;
	int err = 0;

	if (!term || !*term) {
		snprintf(why, len, "TERM is not set");
		return false;
	}
	/* initscr() would exit the process over an unknown terminal, and
	 * a known one without cursor addressing ("dumb") cannot show a
	 * screen: ask terminfo first. */
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(why, len, "TERM=%s: %s", term,
			 err == 0 ? "no such terminal in the terminfo database"
				  : "terminfo cannot be read");
		return false;
	}
	ok = tigetstr("cup") && tigetstr("cup") != (char *)-1;
	del_curterm(cur_term);
	if (!ok)
		snprintf(why, len, "TERM=%s: the terminal cannot move the "
				   "cursor, so it cannot show the live display",
			 term);
	return ok;
}
