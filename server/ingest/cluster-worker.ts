// Entry of a gateway cluster worker process (see cluster.ts).
import { runClusterWorker } from './cluster.ts';

void runClusterWorker();
