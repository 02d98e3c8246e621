// Small wrappers around libedit's variadic calls (el_set, el_get, history),
// which Swift cannot call directly. One wrapper per use.
#ifndef TAGSH_CLIBEDIT_SHIM_H
#define TAGSH_CLIBEDIT_SHIM_H

#include <histedit.h>
#include <stdio.h>
#include <wchar.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

typedef char *(*tagsh_prompt_fn)(EditLine *);
typedef unsigned char (*tagsh_el_fn)(EditLine *, int);

static inline int tagsh_el_set_prompt(EditLine *e, tagsh_prompt_fn f) { return el_set(e, EL_PROMPT, f); }
static inline int tagsh_el_set_editor(EditLine *e, const char *mode) { return el_set(e, EL_EDITOR, mode); }
static inline int tagsh_el_set_signal(EditLine *e, int on) { return el_set(e, EL_SIGNAL, on); }
static inline int tagsh_el_set_hist(EditLine *e, History *h) { return el_set(e, EL_HIST, history, h); }
static inline int tagsh_el_addfn(EditLine *e, const char *name, const char *help, tagsh_el_fn f) {
    return el_set(e, EL_ADDFN, name, help, f);
}
static inline int tagsh_el_bind(EditLine *e, const char *key, const char *fn) {
    return el_set(e, EL_BIND, key, fn, NULL);
}
static inline int tagsh_el_set_clientdata(EditLine *e, void *d) { return el_set(e, EL_CLIENTDATA, d); }
static inline void *tagsh_el_get_clientdata(EditLine *e) {
    void *d = NULL;
    el_get(e, EL_CLIENTDATA, &d);
    return d;
}
static inline FILE *tagsh_el_get_outfp(EditLine *e) {
    FILE *f = NULL;
    el_get(e, EL_GETFP, 1, &f);
    return f;
}
static inline int tagsh_el_get_columns(EditLine *e) {
    int c = 0;
    el_get(e, EL_GETTC, "co", &c);
    return c;
}

static inline int tagsh_history_setsize(History *h, int n) { HistEvent ev; return history(h, &ev, H_SETSIZE, n); }
static inline int tagsh_history_setunique(History *h, int on) { HistEvent ev; return history(h, &ev, H_SETUNIQUE, on); }
static inline int tagsh_history_load(History *h, const char *path) { HistEvent ev; return history(h, &ev, H_LOAD, path); }
static inline int tagsh_history_save(History *h, const char *path) { HistEvent ev; return history(h, &ev, H_SAVE, path); }
static inline int tagsh_history_enter(History *h, const char *line) { HistEvent ev; return history(h, &ev, H_ENTER, line); }

/// The columns a character takes on the terminal (libedit's own measure); -1 for one that is not printable.
int wcwidth(wchar_t c);
static inline int tagsh_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }

static inline FILE *tagsh_stdin(void) { return stdin; }
static inline FILE *tagsh_stdout(void) { return stdout; }
static inline FILE *tagsh_stderr(void) { return stderr; }

/// The terminal's width in columns, or 0 when the descriptor is not a terminal.
static inline int tagsh_terminal_columns(int fd) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 0;
}

#endif
