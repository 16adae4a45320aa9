# aiterm-askpass: the SSH_ASKPASS program aiterm-mcp gives ssh when a
# caller passed remote_secret (REM-AUTH, ADR 0019).
bin_PROGRAMS += aiterm-askpass
aiterm_askpass_SOURCES = askpass/main.c
