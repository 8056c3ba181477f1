/* Linked into the released CPU prebuild only (binding.gyp, hookmd_glibc_floor=1), so that it loads on
 * glibc 2.28 (Node 20's own floor: Debian 10, Ubuntu 20.04 has 2.31, RHEL 8) although it is built on a newer
 * glibc. libstdc++ is linked statically; binding.gyp routes every reference to the symbols below, in hookmd's
 * objects and in libstdc++.a alike, through the __wrap_ functions here (ld --wrap), which call the oldest
 * version of each symbol. docs/install.md, "The glibc floor", lists them; scripts/glibc-floor/check.sh
 * fails the prebuild when any newer version is still needed. */
#define _GNU_SOURCE /* struct stat64 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/stat.h>

/* Binds hookmd_floor_<name> to <name>@<version>, the version every x86-64 glibc since 2.2.5 exports. */
#define HOOKMD_PIN(name) __asm__(".symver hookmd_floor_" #name ", " #name "@GLIBC_2.2.5")

/* glibc 2.34 moved libpthread into libc and gave these functions a new version; the 2.2.5 ones are the
 * same functions (in libpthread.so.0 on older systems, which Node itself loads there). */
HOOKMD_PIN(pthread_create);
HOOKMD_PIN(pthread_join);
HOOKMD_PIN(pthread_detach);
HOOKMD_PIN(pthread_once);
HOOKMD_PIN(pthread_key_create);
HOOKMD_PIN(__pthread_key_create);
HOOKMD_PIN(pthread_key_delete);
HOOKMD_PIN(pthread_getspecific);
HOOKMD_PIN(pthread_setspecific);
/* glibc 2.29 added exp, log and pow without the SVID error wrappers; the 2.2.5 versions return the same values
 * (pow: Tersoff's and Stillinger–Weber's fractional powers). */
HOOKMD_PIN(exp);
HOOKMD_PIN(log);
HOOKMD_PIN(pow);
/* glibc 2.33 exported fstat64 as a function; before, <sys/stat.h> inlined it as __fxstat64(_STAT_VER, ...),
 * which every glibc still exports at 2.2.5. libstdc++'s std::basic_filebuf (std::ifstream, used by the
 * thread budget to read cgroup files) calls it. */
HOOKMD_PIN(__fxstat64);

int hookmd_floor_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int hookmd_floor_pthread_join(pthread_t, void **);
int hookmd_floor_pthread_detach(pthread_t);
int hookmd_floor_pthread_once(pthread_once_t *, void (*)(void));
int hookmd_floor_pthread_key_create(pthread_key_t *, void (*)(void *));
int hookmd_floor___pthread_key_create(pthread_key_t *, void (*)(void *));
int hookmd_floor_pthread_key_delete(pthread_key_t);
void *hookmd_floor_pthread_getspecific(pthread_key_t);
int hookmd_floor_pthread_setspecific(pthread_key_t, const void *);
double hookmd_floor_exp(double);
double hookmd_floor_log(double);
double hookmd_floor_pow(double, double);
int hookmd_floor___fxstat64(int, int, struct stat64 *);

int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
  return hookmd_floor_pthread_create(thread, attr, start, arg);
}
int __wrap_pthread_join(pthread_t thread, void **result) { return hookmd_floor_pthread_join(thread, result); }
int __wrap_pthread_detach(pthread_t thread) { return hookmd_floor_pthread_detach(thread); }
int __wrap_pthread_once(pthread_once_t *once, void (*init)(void)) { return hookmd_floor_pthread_once(once, init); }
int __wrap_pthread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
  return hookmd_floor_pthread_key_create(key, destructor);
}
/* libstdc++ tests this weak symbol's address to learn whether threads exist; defined, it always answers
 * yes, which is true in every Node process. */
int __wrap___pthread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
  return hookmd_floor___pthread_key_create(key, destructor);
}
int __wrap_pthread_key_delete(pthread_key_t key) { return hookmd_floor_pthread_key_delete(key); }
void *__wrap_pthread_getspecific(pthread_key_t key) { return hookmd_floor_pthread_getspecific(key); }
int __wrap_pthread_setspecific(pthread_key_t key, const void *value) { return hookmd_floor_pthread_setspecific(key, value); }
double __wrap_exp(double x) { return hookmd_floor_exp(x); }
double __wrap_log(double x) { return hookmd_floor_log(x); }
double __wrap_pow(double x, double y) { return hookmd_floor_pow(x, y); }
/* _STAT_VER_LINUX (1 on x86-64) is the layout of struct stat64 that __fxstat64 fills in. */
int __wrap_fstat64(int fd, struct stat64 *buf) { return hookmd_floor___fxstat64(1, fd, buf); }

/* glibc 2.36 added arc4random; libstdc++'s std::random_device (never constructed by hookmd, but linked in
 * with random.o) calls it. getrandom exists since glibc 2.25. */
uint32_t __wrap_arc4random(void) {
  uint32_t value;
  for (;;) {
    ssize_t got = getrandom(&value, sizeof value, 0);
    if (got == (ssize_t)sizeof value) return value;
    if (got < 0 && errno != EINTR) abort();
  }
}

/* glibc 2.32 added this flag, which libstdc++'s inline reference counting reads. Defined here and hidden,
 * it binds inside the addon; 0 ("threads may exist") keeps every count atomic, as a Node process needs. */
__attribute__((visibility("hidden"))) char __libc_single_threaded = 0;
