import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OtpInput, otpDigits } from './otp-input.js';

afterEach(cleanup);

function setup() {
  const onComplete = vi.fn();
  render(<OtpInput onComplete={onComplete} />);
  const input = screen.getByLabelText<HTMLInputElement>('Passcode');
  const boxes = () => Array.from(document.querySelectorAll('.gh-otp-box'), (b) => b.textContent);
  return { onComplete, input, boxes };
}

describe('otpDigits', () => {
  it('keeps at most six digits', () => {
    expect(otpDigits('12a3 4-5678')).toBe('123456');
    expect(otpDigits('abc')).toBe('');
  });
});

describe('OtpInput', () => {
  it('is a numeric one-time-code field shown as six boxes', () => {
    const { input, boxes } = setup();
    expect(input.autocomplete).toBe('one-time-code');
    expect(input.inputMode).toBe('numeric');
    expect(boxes()).toEqual(['', '', '', '', '', '']);
  });

  it('keeps digits only and submits by itself at the sixth', () => {
    const { input, boxes, onComplete } = setup();
    fireEvent.input(input, { target: { value: '1a2' } });
    expect(input.value).toBe('12');
    expect(boxes()).toEqual(['1', '2', '', '', '', '']);
    fireEvent.input(input, { target: { value: '12345' } });
    expect(onComplete).not.toHaveBeenCalled();
    fireEvent.input(input, { target: { value: '123456' } });
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(onComplete).toHaveBeenCalledWith('123456');
    fireEvent.input(input, { target: { value: '1234567' } });
    expect(input.value).toBe('123456');
    expect(onComplete).toHaveBeenCalledTimes(1);
  });

  it('takes a pasted code whole, spaces and all', () => {
    const { input, onComplete } = setup();
    fireEvent.input(input, { target: { value: '987 654' } });
    expect(onComplete).toHaveBeenCalledWith('987654');
  });
});
