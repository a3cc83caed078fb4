import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import type { Role } from '@bathylog/shared';
import { useAuth } from '../lib/auth';
import { LoadingText, statusTexts } from './status-text';

export interface RoleGateProps {
  /** Any of these roles may see the children. */
  roles: Role[];
  children: ReactNode;
  /** Send other users here instead of showing "What are YOU doing here?" (the Tasks page sends them home). */
  redirectTo?: string;
}

/**
 * Management screens: "Loading..." until the roles are known, then the screen for the allowed
 * roles and "What are YOU doing here?" for everyone else (docs/screens.md#role-gates).
 */
export function RoleGate({ roles, children, redirectTo }: RoleGateProps) {
  const auth = useAuth();
  if (!auth.profile) return <LoadingText text={statusTexts.loading} />;
  if (auth.hasRole(...roles)) return <>{children}</>;
  if (redirectTo) return <Redirect to={redirectTo} replace />;
  return <div className="text-center p-4 text-secondary">{statusTexts.notAllowed}</div>;
}
