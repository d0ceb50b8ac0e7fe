package io.shardline.runtime.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Entry point behind {@code bin/start-worker}: runs one worker in the foreground. */
@Command(name = "start-worker",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Starts a Shardline worker in the foreground with the given worker.properties.")
public final class StartWorker implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "WORKER_PROPERTIES", description = "Path to the worker configuration file.")
    private String workerProperties;

    @Override
    public Integer call() {
        System.err.println("start-worker: the worker runtime is not built yet (issue: the worker runtime)");
        return 1;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new StartWorker()).execute(args));
    }
}
