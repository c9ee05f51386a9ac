// libcrypt (libxcrypt on Debian, from libcrypt-dev, a dependency of libc6-dev): crypt_r() checks a
// password against a bcrypt hash ($2a$, $2b$, $2y$) for the metrics endpoint's basic_auth_users.
#include <crypt.h>
