// Bug tracking (spec sections 1 and 7): errors reported by the web client, de-duplicated per company; the register
// /adm/sis/bugtrack (metadata/adm/bug.yaml) with the actions Reconhecer, Resolver, Excluir.
import { defineModule } from '../../server/core/module.ts';
import routes, { actions } from './server/bugtrack.ts';

export default defineModule({ name: 'bugtrack', routes, actions });
