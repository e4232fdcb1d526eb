export { changePassword, useChangePassword } from './api/change-password';
export { fetchCurrentUser } from './api/current-user';
export { login, useLogin } from './api/login';
export { register, useRegister } from './api/register';
export { type AuthContextValue, AuthProvider, type AuthStatus, useAuth } from './auth-context';
export { ForgotPasswordPage } from './components/forgot-password-page';
export { LoginPage } from './components/login-page';
export { RegisterPage } from './components/register-page';
export { RedirectIfAuthenticated, RequireAuth } from './components/require-auth';
