package dev.orderflow.order.filequeue;

/** A file that cannot become orders: its content is invalid. Nothing of it has been written. */
public class FileRejectedException extends Exception {

    private final FailureClass failureClass;

    public FileRejectedException(FailureClass failureClass, String message) {
        super(message);
        this.failureClass = failureClass;
    }

    public FailureClass failureClass() {
        return failureClass;
    }
}
