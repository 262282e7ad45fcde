/** The widget's strings in Spanish, fetched only by widgets whose locale is `es` (or `es-…`). */
import type { MessageTable } from './en.js';

/** The Spanish message table: every key of `en`, with the same placeholders. */
export const es: MessageTable = {
  // Main
  'main.heading.discovery': 'Regístrate o inicia sesión',
  'main.heading.organization': 'Continuar a {organizationName}',
  'main.divider': 'o',
  'main.usePassword': 'Usar una contraseña',
  'main.oauth.google': 'Continuar con Google',
  'main.oauth.microsoft': 'Continuar con Microsoft',
  'main.sso': 'Continuar con {displayName}',
  'main.appLogo': 'Logotipo',
  'main.organizationLogo': 'Logotipo de {organizationName}',
  'oneTap.failed': 'No se pudo cargar One Tap',
  watermark: 'Con la tecnología de Gatehouse',

  // E-mail form
  'email.label': 'Correo electrónico',
  'email.placeholder': 'ejemplo@correo.com',
  'email.submit': 'Continuar con correo electrónico',
  'email.invalid': 'Dirección de correo electrónico no válida',
  'email.noAccess':
    '{email} no tiene acceso a {organizationName}. Si crees que es un error, contacta con tu administrador.',

  // EmailConfirmation
  'emailConfirmation.heading': 'Revisa tu correo electrónico',
  'emailConfirmation.sentTo': 'Se ha enviado un correo electrónico a {email}.',
  'emailConfirmation.didntGetIt': '¿No lo has recibido?',
  'emailConfirmation.tryAgain': 'Inténtalo de nuevo',
  'webmail.gmail': 'Gmail',
  'webmail.outlook': 'Outlook',
  'webmail.yahoo': 'Yahoo Mail',

  // LoggedIn
  'loggedIn.heading': '¡Listo!',
  'loggedIn.body': 'Has iniciado sesión correctamente.',

  // Discovery
  'discovery.heading': 'Selecciona una organización para continuar',
  'discovery.join': 'Unirse',
  'discovery.acceptInvite': 'Aceptar invitación',
  'discovery.create': 'Crear una organización',
  'discovery.emptyCreate.heading': 'Crea una organización para empezar',
  'discovery.emptyCreate.body':
    '{email} no tiene una cuenta. ¿Crees que es un error? Prueba con otra dirección de correo electrónico o contacta con tu administrador.',
  'discovery.emptyNoCreate.heading': '{email} no pertenece a ninguna organización.',
  'discovery.emptyNoCreate.body':
    'Comprueba que tu dirección de correo electrónico sea correcta. Si lo es, puede que necesites que tu administrador te invite.',
  'discovery.tryDifferentEmail': 'Probar con otra dirección de correo electrónico',

  // Error
  'error.heading': '¡Parece que se ha producido un error!',
  'error.backToStart': 'Volver al inicio de sesión',
  'error.default':
    'Algo ha salido mal. Inténtalo de nuevo más tarde o pide ayuda a tu administrador.',
  'error.emailMagicLink':
    'Algo ha salido mal. Es posible que tu enlace de inicio de sesión haya caducado, se haya revocado o se haya usado más de una vez. Solicita un nuevo enlace de inicio de sesión para volver a intentarlo o pide ayuda a tu administrador.',
  'error.organization':
    'No se ha encontrado la organización que buscas. Si crees que es un error, contacta con tu administrador.',

  // Captcha
  'captcha.failed': 'No hemos podido completar la comprobación de seguridad. Inténtalo de nuevo.',
  'captcha.unavailable':
    'La comprobación de seguridad no está disponible ahora mismo. Inténtalo de nuevo en un momento.',

  // Loading
  'loading.loggingIn': 'Iniciando sesión...',
  'loading.label': 'Cargando',

  // Passwords
  'common.back': 'Atrás',
  'password.label': 'Contraseña',
  'password.newLabel': 'Nueva contraseña',
  'password.show': 'Mostrar contraseña',
  'password.strength': 'Seguridad de la contraseña',
  'password.requirementMet': 'Requisito cumplido:',
  'password.requirementMissing': 'Requisito no cumplido:',
  'password.checking': 'Comprobando tu contraseña…',
  'passwordAuthenticate.heading': 'Inicia sesión con tu correo electrónico y contraseña',
  'passwordAuthenticate.continue': 'Continuar',
  'passwordAuthenticate.help': '¿Tienes problemas para iniciar sesión? Obtén ayuda',
  'passwordAuthenticate.invalid':
    'Correo electrónico o contraseña no válidos. Inténtalo de nuevo o usa el enlace de abajo para obtener ayuda.',
  'passwordResetForm.heading': 'Establece una nueva contraseña',
  'passwordResetForm.linkMissing':
    'Para elegir una contraseña nueva, abre el enlace del correo de restablecimiento. Para recibir uno, elige «¿Tienes problemas para iniciar sesión? Obtén ayuda» al iniciar sesión.',
  'passwordResetForm.linkUnusable':
    'Este enlace de restablecimiento no existe, ha caducado o ya se ha usado. Para recibir uno nuevo, elige «¿Tienes problemas para iniciar sesión? Obtén ayuda» al iniciar sesión.',
  'passwordResetVerify.heading': 'Primero verifica tu correo electrónico.',
  'passwordResetVerify.sentTo': 'Te hemos enviado un enlace de inicio de sesión a {email}.',
  'passwordResetVerify.didntGetIt': '¿No lo has recibido?',
  'passwordResetVerify.resend': 'Reenviar correo',
  'passwordForgot.heading':
    '¡Revisa tu correo electrónico para obtener ayuda con el inicio de sesión!',
  'passwordForgot.body':
    'Te enviaremos por correo electrónico un enlace para iniciar sesión directamente en tu cuenta o, si tienes una contraseña, restablecerla.',
  'passwordSetNew.heading': '¡Revisa tu correo electrónico!',
  'passwordSetNew.resend': 'Reenviar correo',
  'passwordSetNew.resent': 'Correo reenviado',
  'passwordSetNew.resetRequired':
    'Tu organización exige una contraseña nueva antes de que puedas iniciar sesión. Usa el enlace que te hemos enviado para establecerla.',
  'password.ludsLength': 'Debe tener al menos {minimum} caracteres',
  'password.ludsComplexity':
    'Debe contener {n} de los siguientes: letra mayúscula, letra minúscula, número, símbolo',
  'password.breached':
    'Es posible que esta contraseña se haya usado en otro sitio que sufrió un problema de seguridad. Elige otra contraseña.',
  'password.nonMemberResetFailed':
    'No hemos podido verificar tu correo electrónico. Contacta con tu administrador.',
  'password.magicLinkResetFailed':
    'No hemos podido verificar tu correo electrónico. Pide ayuda a tu administrador.',

  // MFA
  'mfaEnrollment.heading': 'Configura la autenticación multifactor',
  'mfaEnrollment.body':
    'Tu organización exige un método de verificación adicional para que tu cuenta sea más segura.',
  'mfa.totpOption': 'Usar una aplicación de autenticación',
  'mfa.smsOption': 'Enviarme un código por SMS',
  'smsEnrollment.heading':
    'Introduce tu número de teléfono para configurar la autenticación multifactor',
  'smsEnrollment.placeholder': '(123) 456-7890',
  'smsEntry.heading': 'Introduce el código',
  'smsEntry.sentTo': 'Te hemos enviado un código de 6 dígitos al {destination}.',
  'smsEntry.resend': 'Reenviar código',
  'smsEntry.expired': 'Tu código ha caducado.',
  'totpQr.heading': 'Escanea el código QR para vincular tu aplicación de autenticación',
  'totpQr.trouble': '¿Tienes problemas para escanearlo?',
  'totpManual.heading': '¿Tienes problemas para escanear el código QR?',
  'totpManual.rescan': 'Volver a escanear el código QR',
  'totpManual.copied': 'Código copiado',
  'totpManual.copyFailed': 'No se pudo copiar el código al portapapeles',
  'totpEntry.heading': 'Introduce el código de verificación',
  'totpEntry.body': 'Introduce el código de 6 dígitos de tu aplicación de autenticación.',
  'totpEntry.backupCode':
    '¿No puedes acceder a tu aplicación de autenticación? Usa un código de respaldo',
  'totpEntry.smsInstead': 'Enviarme un código por SMS',
  'recoveryEntry.heading': 'Introduce un código de respaldo',
  'recoveryEntry.placeholder': 'Introduce un código de respaldo',
  'recoverySave.heading': '¡Guarda tus códigos de respaldo!',
  'recoverySave.body': 'Esta es la única vez que podrás ver y guardar tus códigos de respaldo.',
  'recoverySave.download': 'Descargar archivo',
  'recoverySave.fileName': '{organizationName}-codigos-de-respaldo.txt',
  'recoverySave.defaultFileName': 'codigos-de-respaldo.txt',
  'recoverySave.copyAll': 'Copiar todos',
  'recoverySave.copied': 'Copiados',
  'recoverySave.copyFailed': 'No se pudieron copiar los códigos al portapapeles',
  'recoverySave.done': 'Hecho',
  'totpEntry.enrollingHint':
    'Si el código de verificación no funciona, vuelve a tu aplicación de autenticación para obtener uno nuevo.',
  'totpQr.alt': 'Código QR para tu aplicación de autenticación',
  'smsEntry.expiresIn': 'Tu código caduca en {time}.',
  'otp.label': 'Código',
  'phone.country': 'País',
  'phone.label': 'Número de teléfono',
  'mfa.invalidBackupCode': 'El código de respaldo no es válido. Inténtalo de nuevo.',
  'mfa.invalidPasscode': 'El código no es válido. Inténtalo de nuevo.',
  'phone.invalid': 'El número de teléfono no es válido. Inténtalo de nuevo.',
  'phone.duplicate': 'Ya existe un miembro con ese número de teléfono en esta organización.',
  'common.continue': 'Continuar',
};
