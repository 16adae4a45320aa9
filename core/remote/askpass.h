/*
 * The secret a caller gave for a remote host (REM-AUTH, ADR 0019), handed
 * to ssh without argv, an environment value or a file: ssh runs our
 * aiterm-askpass (SSH_ASKPASS, SSH_ASKPASS_REQUIRE=force), which connects
 * to a socket the server listens on for that one ssh process (0600, in
 * the 0700 <state root>/ssh, peer uid checked), sends ssh's prompt and
 * prints the answer.  Only passphrase and password prompts are answered;
 * a host key question and anything else get nothing (ssh then stops).
 */
#ifndef AITERM_REMOTE_ASKPASS_H
#define AITERM_REMOTE_ASKPASS_H

struct askpass;

/* Listen on path for secret (copied); NULL and *why when it cannot. */
struct askpass	*askpass_start(const char *path, const char *secret,
		    char **why);
/* Prompts answered so far. */
int		 askpass_answered(const struct askpass *a);
/* Stop listening, remove the socket, wipe the copy. */
void		 askpass_stop(struct askpass *a);
/* Overwrite a secret before its memory is freed. */
void		 secret_wipe(char *s);

#endif
