"""Every write of accounts, a module per concern; each write a named function with keyword-only
arguments, in one transaction (``@transaction.atomic``, or a single statement), sending what it
sends after commit.

- ``players``: sign up, change the display name;
- ``access``: sessions and API tokens: recorded on use, issued, ended;
- ``guests``: a guest made, claimed by signing up, removed when idle;
- ``email_verification``: the verified address asked for, confirmed, removed;
- ``passwords``: a password changed or reset (with every other session ended, one transaction),
  the reset mail asked for;
- ``deletion``: an account deleted, held usernames released.

Views, forms and tasks call these; reads are ``accounts.selectors``.
"""
