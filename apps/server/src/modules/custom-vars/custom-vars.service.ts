import {
  asnapStatusValues,
  customVarNames,
  messages,
  serverOwnedCustomVars,
  type CustomVar,
  type UpdateCustomVar,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { recordChange } from '../audit/audit.js';
import { CustomVarsRepository } from './custom-vars.repository.js';
import { customVarsCache } from './custom-vars-cache.js';

/**
 * Custom vars (docs/wire.md#custom-vars): seeded, never created or deleted through the API. Anyone who may
 * write events may set asnapStatus (ASNAP scripts log in as loggers); the free-space vars belong
 * to the server's monitor. Every change is pushed on updateCustomVars with the new value.
 */
export class CustomVarsService {
  constructor(private readonly ctx: AppContext) {}

  private get repo() {
    return new CustomVarsRepository(this.ctx.database.db);
  }

  private get cache() {
    return customVarsCache(this.ctx);
  }

  /** The vars (in id order), or those named (exact names); read through the cache (custom-vars-cache.ts). */
  async list(names?: string[]): Promise<CustomVar[]> {
    const all = await this.cache.list(() => this.repo.list());
    const vars = names ? all.filter((v) => names.includes(v.custom_var_name)) : all;
    if (vars.length === 0) throw new AppError('NOT_FOUND', messages.noRecords);
    return vars;
  }

  async get(id: string): Promise<CustomVar> {
    const found = (await this.cache.list(() => this.repo.list())).find((v) => v.id === id);
    if (!found) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
    return found;
  }

  /** A change through the API, recorded in the audit trail (the server's own readings are not). */
  async update(caller: AuthContext, id: string, body: UpdateCustomVar): Promise<void> {
    const repo = this.repo;
    const stored = await repo.findById(id);
    if (!stored) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
    if (serverOwnedCustomVars.includes(stored.custom_var_name)) {
      throw new AppError('FORBIDDEN', `${stored.custom_var_name} is set by the server and cannot be changed`);
    }
    // Names are what scripts and the client look vars up by; renaming one would orphan them all.
    if (body.custom_var_name !== undefined && body.custom_var_name !== stored.custom_var_name) {
      throw new AppError('BAD_REQUEST', `"custom_var_name" cannot be changed (it is ${stored.custom_var_name})`);
    }
    const value = body.custom_var_value;
    if (
      value !== undefined &&
      stored.custom_var_name === customVarNames.asnapStatus &&
      !(asnapStatusValues as readonly string[]).includes(value)
    ) {
      throw new AppError('BAD_REQUEST', `"custom_var_value" must be one of [${asnapStatusValues.join(', ')}]`);
    }
    if (value !== undefined) {
      try {
        await this.ctx.database.db.transaction().execute(async (trx) => {
          await new CustomVarsRepository(trx).setValue(id, value);
          await recordChange(trx, caller, {
            action: 'update',
            record_type: 'custom_var',
            record_id: id,
            old_value: { custom_var_name: stored.custom_var_name, custom_var_value: stored.custom_var_value },
            new_value: { custom_var_name: stored.custom_var_name, custom_var_value: value },
          });
        });
      } finally {
        this.cache.invalidate();
      }
    }
    this.ctx.bus.publish('updateCustomVars', {
      id,
      custom_var_name: stored.custom_var_name,
      custom_var_value: value ?? stored.custom_var_value,
    });
  }

  /**
   * Server-side writes (the free-space monitor): sets a var by name and pushes the new value.
   * Returns false when the var does not exist. The reading is pushed even when it cannot be
   * stored: on a full disk the footers still turn red, and the store error is thrown to the caller.
   */
  async setByServer(name: string, value: string): Promise<boolean> {
    const repo = this.repo;
    const stored = await repo.findByName(name);
    if (!stored) return false;
    try {
      await repo.setValue(stored.id, value);
    } finally {
      this.cache.invalidate();
      this.ctx.bus.publish('updateCustomVars', { id: stored.id, custom_var_name: name, custom_var_value: value });
    }
    return true;
  }
}
