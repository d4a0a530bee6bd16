// Driver ranking: scores of events per driver over a period.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/ranking.ts';

export default defineModule({ name: 'ranking', providers });
