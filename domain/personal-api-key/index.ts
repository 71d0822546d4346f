import type { Decider } from '../decider';
import type { PersonalApiKeyCommand } from './commands';
import { decide } from './decide';
import type { PersonalApiKeyEvent } from './events';
import { evolve, initialState, PersonalApiKeyState } from './state';

export const personalApiKeyDecider: Decider<PersonalApiKeyState, PersonalApiKeyCommand, PersonalApiKeyEvent> = { decide, evolve, initialState };
export const personalApiKeyStream = (id: string) => `personal_api_key-${id}`;
export type { PersonalApiKeyCommand, PersonalApiKeyEvent, PersonalApiKeyState };
