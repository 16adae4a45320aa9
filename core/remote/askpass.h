/*
 * The secret a caller gave for a remote host (REM-AUTH, ADR 0019), handed
 * to ssh without argv, an environment value or a file: ssh runs our
 * aiterm-askpass (SSH_ASKPASS, SSH_ASKPASS_REQUIRE=force), which connects
 * to a socket the server listens on for that one ssh process (0600, in
 * the 0700 <state root>/ssh), sends ssh's prompt and prints the answer.
 * Only that ssh's own askpass is answered (the peer's pid, by
 * SO_PEERCRED, is a child of the ssh askpass_child named, which still has
 * its start identity), at most three times; any other process gets
 * nothing and is logged on stderr.  Only passphrase and password prompts
 * are answered; a host key question and anything else get nothing (ssh
 * then stops).
 */
#ifndef AITERM_REMOTE_ASKPASS_H
#define AITERM_REMOTE_ASKPASS_H

struct askpass;

/* Listen on path for secret (copied); NULL and *why when it cannot. */
struct askpass	*askpass_start(const char *path, const char *secret,
		    char **why);
/* The ssh the secret is for, once spawned; nobody is answered before. */
void		 askpass_child(struct askpass *a, long pid);
/* Prompts answered so far. */
int		 askpass_answered(const struct askpass *a);
/* Stop listening, remove the socket, wipe the copy. */
void		 askpass_stop(struct askpass *a);
/* Overwrite a secret before its memory is freed. */
void		 secret_wipe(char *s);

#endif
