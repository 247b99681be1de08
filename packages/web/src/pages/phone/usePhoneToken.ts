import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { setPhoneToken } from '../../api/client.js';

const TOKEN_KEY = 'examhall-phone-token';

/**
 * Reads the phone token from the address, keeps it for reloads of this tab (sessionStorage, never
 * the cookie) and takes it out of the address, so it is not shown or sent on as the referer.
 */
export function usePhoneToken(): string | null {
  const [params, setParams] = useSearchParams();
  const [token] = useState(() => {
    const fromUrl = params.get('auth');
    try {
      if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl);
      return fromUrl ?? sessionStorage.getItem(TOKEN_KEY);
    } catch {
      return fromUrl;
    }
  });
  // Set during render so the first query already carries it.
  setPhoneToken(token);
  const inAddress = params.has('auth');
  useEffect(() => {
    if (inAddress) setParams({}, { replace: true });
  }, [inAddress, setParams]);
  return token;
}
