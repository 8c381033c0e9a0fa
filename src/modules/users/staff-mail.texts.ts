import { defineTexts } from '../../kernel/i18n.js';

// The two mails of staff accounts (issue #43, docs/dashboard.md "Forgotten passwords and
// invitations"), in English and German. Mails are text; the HTML part escapes what it puts in.
export const staffMailTexts = defineTexts(
  'staff-mail',
  {
    'reset.subject': 'Reset your Portier password',
    'reset.greeting': 'Hello,',
    'reset.body':
      'someone asked to reset the password of {email} for {tenant} on Portier. To choose a new password, open this link within {minutes} minutes:',
    'reset.button': 'Choose a new password',
    'reset.ignore': 'If you did not ask for this, ignore this mail: your password stays as it is. The link works once.',
    'invite.subject': 'You are invited to {tenant} on Portier',
    'invite.greeting': 'Hello,',
    'invite.body':
      '{inviter} invites you to the Portier dashboard of {tenant} as {role}. To accept, open this link within {days} days and choose your password:',
    'invite.button': 'Accept the invitation',
    'invite.ignore': 'If you did not expect this invitation, ignore this mail. The link works once.',
    'role.admin': 'administrator',
    'role.staff': 'staff member',
  },
  {
    'reset.subject': 'Ihr Portier-Passwort zurücksetzen',
    'reset.greeting': 'Hallo,',
    'reset.body':
      'jemand möchte das Passwort von {email} für {tenant} bei Portier zurücksetzen. Um ein neues Passwort zu wählen, öffnen Sie diesen Link innerhalb von {minutes} Minuten:',
    'reset.button': 'Neues Passwort wählen',
    'reset.ignore':
      'Wenn Sie das nicht angefordert haben, ignorieren Sie diese Mail: Ihr Passwort bleibt unverändert. Der Link funktioniert einmal.',
    'invite.subject': 'Einladung zu {tenant} bei Portier',
    'invite.greeting': 'Hallo,',
    'invite.body':
      '{inviter} lädt Sie als {role} in das Portier-Dashboard von {tenant} ein. Um die Einladung anzunehmen, öffnen Sie diesen Link innerhalb von {days} Tagen und wählen Sie Ihr Passwort:',
    'invite.button': 'Einladung annehmen',
    'invite.ignore':
      'Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese Mail. Der Link funktioniert einmal.',
    'role.admin': 'Administrator',
    'role.staff': 'Mitarbeiter',
  },
);
